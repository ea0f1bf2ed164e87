// Expr: rendering (the reader's text) and evaluation (the test's check) of one formula, from one tree.
#include "roofline/formula.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/text.h"

namespace tierscope::model {

namespace {

bool is_list(Expr::Op op) { return op == Expr::Op::Sum || op == Expr::Op::Prod || op == Expr::Op::Max || op == Expr::Op::Min; }

const char* separator(Expr::Op op) {
  switch (op) {
    case Expr::Op::Sum: return " + ";
    case Expr::Op::Diff: return " − ";
    case Expr::Op::Prod: return " × ";
    case Expr::Op::Quot: return " / ";
    case Expr::Op::Pow: return "^";
    case Expr::Op::Max:
    case Expr::Op::Min: return ", ";
    default: return "";
  }
}

// The value a number printed by human() or num_sig() stands for: "2.73 ms" → 0.00273, "1,024" → 1024,
// "12.5 %" → 0.125. The prefixes are the ones human() writes for each unit.
double parse_shown(const std::string& text, std::string_view unit) {
  std::string digits;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '$') ++i;
  for (; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ',') continue;
    if ((ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E') {
      // An 'e' only as an exponent: followed by a digit or a sign.
      if ((ch == 'e' || ch == 'E') && !(i + 1 < text.size() && (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' || text[i + 1] == '+')))
        break;
      digits += ch;
      continue;
    }
    break;
  }
  double x = std::strtod(digits.c_str(), nullptr);
  while (i < text.size() && text[i] == ' ') ++i;
  const std::string_view rest = std::string_view(text).substr(i);
  if (unit == "fraction") return x / 100.0;
  return x * shown_scale(unit, rest);
}

}  // namespace

Expr Expr::quantity(double v, std::string_view unit, std::string_view label, int digits) {
  Expr e;
  e.op_ = Op::Leaf;
  e.value_ = v;
  e.unit_ = unit;
  e.label_ = label;
  e.digits_ = digits;
  return e;
}

Expr Expr::text(std::string words) {
  Expr e;
  e.op_ = Op::Words;
  e.note_ = std::move(words);
  return e;
}

Expr& Expr::named(std::string_view label) {
  label_ = label;
  return *this;
}

Expr& Expr::note(std::string_view words) {
  if (op_ == Op::Words) {
    note_ += note_.empty() ? std::string(words) : " (" + std::string(words) + ")";
    return *this;
  }
  if (!note_.empty()) note_ += "; ";
  note_ += words;
  return *this;
}

Expr Expr::join(Op op, Expr a, Expr b) {
  // Sums and products flatten (a + b + c, not (a + b) + c) unless a part has its own name or note.
  auto plain = [op](const Expr& x) { return x.op_ == op && x.label_.empty() && x.note_.empty(); };
  if (is_list(op) && plain(a)) {
    if (plain(b)) {
      for (Expr& k : b.kids_) a.kids_.push_back(std::move(k));
    } else {
      a.kids_.push_back(std::move(b));
    }
    return a;
  }
  Expr e;
  e.op_ = op;
  e.kids_.reserve(2);
  e.kids_.push_back(std::move(a));
  if (is_list(op) && plain(b)) {
    for (Expr& k : b.kids_) e.kids_.push_back(std::move(k));
  } else {
    e.kids_.push_back(std::move(b));
  }
  return e;
}

Expr Expr::list(Op op, std::initializer_list<Expr> items) {
  Expr e;
  e.op_ = op;
  e.kids_.assign(items.begin(), items.end());
  return e;
}

Expr Expr::unary(Op op, Expr a) {
  Expr e;
  e.op_ = op;
  e.kids_.push_back(std::move(a));
  return e;
}

Expr sum_of(std::vector<Expr> items) {
  if (items.empty()) return n(0);
  if (items.size() == 1) return std::move(items.front());
  Expr e = std::move(items.front());
  for (std::size_t i = 1; i < items.size(); ++i) e = std::move(e) + std::move(items[i]);
  return e;
}

Expr max_of(std::vector<Expr> items) {
  if (items.size() == 1) return std::move(items.front());
  Expr out = Expr::list(Expr::Op::Max, {});
  for (Expr& x : items) out = Expr::join(Expr::Op::Max, std::move(out), std::move(x));
  return out;
}

bool Expr::arithmetic() const {
  if (op_ == Op::Words) return false;
  for (const Expr& k : kids_) {
    if (!k.arithmetic()) return false;
  }
  return true;
}

int Expr::leaf_count() const {
  if (op_ == Op::Leaf) return 1;
  int c = 0;
  for (const Expr& k : kids_) c += k.leaf_count();
  return c;
}

std::string Expr::number_text() const {
  if (digits_ > 0) return unit_.empty() ? num_sig(value_, digits_) : num_sig(value_, digits_) + " " + unit_;
  return human(value_, unit_);
}

double Expr::eval_with(bool shown) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (op_) {
    case Op::Leaf: return shown ? parse_shown(number_text(), unit_) : value_;
    case Op::Words: return nan;
    case Op::Sum: {
      double s = 0;
      for (const Expr& k : kids_) s += k.eval_with(shown);
      return s;
    }
    case Op::Prod: {
      double p = 1;
      for (const Expr& k : kids_) p *= k.eval_with(shown);
      return p;
    }
    case Op::Diff: {
      if (kids_.empty()) return nan;
      double d = kids_[0].eval_with(shown);
      for (std::size_t i = 1; i < kids_.size(); ++i) d -= kids_[i].eval_with(shown);
      return d;
    }
    case Op::Quot: {
      if (kids_.empty()) return nan;
      double d = kids_[0].eval_with(shown);
      for (std::size_t i = 1; i < kids_.size(); ++i) d /= kids_[i].eval_with(shown);
      return d;
    }
    case Op::Max:
    case Op::Min: {
      if (kids_.empty()) return nan;
      double m = kids_[0].eval_with(shown);
      for (std::size_t i = 1; i < kids_.size(); ++i) {
        const double x = kids_[i].eval_with(shown);
        m = op_ == Op::Max ? std::max(m, x) : std::min(m, x);
      }
      return m;
    }
    case Op::Floor: return kids_.empty() ? nan : std::floor(kids_[0].eval_with(shown) + 1e-9);
    case Op::Ceil: return kids_.empty() ? nan : std::ceil(kids_[0].eval_with(shown) - 1e-9);
    case Op::Pow: return kids_.size() < 2 ? nan : std::pow(kids_[0].eval_with(shown), kids_[1].eval_with(shown));
  }
  return nan;
}

double Expr::eval() const { return eval_with(false); }
double Expr::eval_shown() const { return eval_with(true); }

double Expr::magnitude_shown() const {
  if (op_ == Op::Leaf) return std::fabs(parse_shown(number_text(), unit_));
  if (op_ == Op::Words) return 0;
  // A sum's or difference's rounding error is absolute in its terms; a product's is relative.
  if (op_ == Op::Sum || op_ == Op::Diff || op_ == Op::Max || op_ == Op::Min) {
    double m = 0;
    for (const Expr& k : kids_) m += k.magnitude_shown();
    return m;
  }
  return std::fabs(eval_shown());
}

bool Expr::needs_brackets_in(Op parent, bool right) const {
  if (op_ == Op::Leaf || op_ == Op::Words || !label_.empty()) return false;
  if (op_ == Op::Max || op_ == Op::Min || op_ == Op::Floor || op_ == Op::Ceil) return false;
  const bool additive = op_ == Op::Sum || op_ == Op::Diff;
  switch (parent) {
    case Op::Prod: return additive;
    case Op::Quot: return right ? (additive || op_ == Op::Prod || op_ == Op::Quot) : additive;
    case Op::Diff: return right && additive;
    case Op::Pow: return true;
    default: return false;
  }
}

void Expr::render_child(std::string& out, const Expr& c, bool right) const {
  const bool br = c.needs_brackets_in(op_, right);
  if (br) out += '(';
  c.render_to(out);
  if (br) out += ')';
}

void Expr::render_to(std::string& out) const {
  switch (op_) {
    case Op::Words: out += note_; return;
    case Op::Leaf:
      if (!label_.empty()) {
        out += label_;
        out += ' ';
      }
      out += number_text();
      break;
    default: {
      const bool bracketed = op_ == Op::Max || op_ == Op::Min || op_ == Op::Floor || op_ == Op::Ceil;
      if (!label_.empty()) out += label_ + (bracketed ? " " : " (");
      if (op_ == Op::Max) out += "max(";
      if (op_ == Op::Min) out += "min(";
      if (op_ == Op::Floor) out += "⌊";
      if (op_ == Op::Ceil) out += "⌈";
      for (std::size_t i = 0; i < kids_.size(); ++i) {
        if (i > 0) out += separator(op_);
        render_child(out, kids_[i], i > 0);
      }
      if (op_ == Op::Max || op_ == Op::Min) out += ')';
      if (op_ == Op::Floor) out += "⌋";
      if (op_ == Op::Ceil) out += "⌉";
      if (!label_.empty() && !bracketed) out += ')';
    }
  }
  if (!note_.empty()) {
    out += " (";
    out += note_;
    out += ')';
  }
}

std::string Expr::render() const {
  std::string s;
  render_to(s);
  return s;
}

}  // namespace tierscope::model
