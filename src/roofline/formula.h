// A figure's formula kept as the expression its value comes from: the text a reader sees is rendered from
// the same terms a test evaluates, so a formula can no longer list a term twice, quote a number the value
// did not use, or drift from its value.
//
//   q(3.238e9, "B", "weights") / (q(8e12, "B/s") * n(0.85).named("MBU"))
//     renders "weights 3.238 GB / (8 TB/s × MBU 0.85)" and evaluates to 476.2 µs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tierscope::model {

class Expr {
 public:
  enum class Op : std::uint8_t { Leaf, Sum, Diff, Prod, Quot, Max, Min, Floor, Ceil, Pow, Words };

  Expr() = default;  // words("") — nothing to evaluate

  // Leaves. The label goes before the number ("routed experts 7.9 ms"); the unit after it, as human()
  // writes it ("7.9 ms", "12.48 GB", "273 sessions", "85 %").
  static Expr quantity(double v, std::string_view unit, std::string_view label, int digits);
  // Text with no arithmetic: a definition, "dense model, no experts", "not computed: …".
  static Expr text(std::string words);

  // A composite gets a name in front of its brackets: "attention (a + b)". On a leaf, the label.
  Expr& named(std::string_view label);
  // A remark after the term in brackets, " (uniform routing assumed)"; never evaluated, so a number in a
  // note is never part of the arithmetic (say "one GPU of 4", not "× 4").
  Expr& note(std::string_view words);

  Op op() const { return op_; }
  // False for text(): the figure's value is not arithmetic in numbers shown.
  bool arithmetic() const;
  // The value from the exact numbers.
  double eval() const;
  // The value from the numbers as printed (each leaf rounded as its text shows it).
  double eval_shown() const;
  // Σ |leaf| as printed: the scale a rounding tolerance is taken from.
  double magnitude_shown() const;
  // The words of a text() node (empty otherwise).
  const std::string& words() const { return note_; }
  // Leaves in the expression.
  int leaf_count() const;
  std::string render() const;
  void render_to(std::string& out) const;

  // Builders used by the operators below.
  static Expr join(Op op, Expr a, Expr b);
  static Expr list(Op op, std::initializer_list<Expr> items);
  static Expr unary(Op op, Expr a);

 private:
  void render_child(std::string& out, const Expr& c, bool right) const;
  bool needs_brackets_in(Op parent, bool right) const;
  double eval_with(bool shown) const;
  std::string number_text() const;

  Op op_ = Op::Words;
  int digits_ = 0;      // leaves: significant digits (0: as human()/num() write them)
  double value_ = 0;    // leaves
  std::string unit_;    // leaves: the unit human() scales
  std::string label_;   // leaves: before the number; composites: before the brackets
  std::string note_;    // after the term, in brackets (or the whole text of a Words node)
  std::vector<Expr> kids_;
};

// "label 2.73 ms": a quantity in a unit human() understands (B, B/s, s, FLOP, FLOP/s, params, fraction,
// ratio) or any plain unit ("sessions", "layers", "GPUs").
inline Expr q(double v, std::string_view unit, std::string_view label = {}) { return Expr::quantity(v, unit, label, 0); }
// A count or plain factor: "40 MoE layers" (num(v), then the words).
inline Expr n(double v, std::string_view words = {}) { return Expr::quantity(v, words, {}, 0); }
// A number with `digits` significant digits: "0.53125 B".
inline Expr sig(double v, int digits, std::string_view unit, std::string_view label = {}) {
  return Expr::quantity(v, unit, label, digits);
}
inline Expr words(std::string text) { return Expr::text(std::move(text)); }

inline Expr operator+(Expr a, Expr b) { return Expr::join(Expr::Op::Sum, std::move(a), std::move(b)); }
inline Expr operator-(Expr a, Expr b) { return Expr::join(Expr::Op::Diff, std::move(a), std::move(b)); }
inline Expr operator*(Expr a, Expr b) { return Expr::join(Expr::Op::Prod, std::move(a), std::move(b)); }
inline Expr operator/(Expr a, Expr b) { return Expr::join(Expr::Op::Quot, std::move(a), std::move(b)); }
inline Expr max_of(std::initializer_list<Expr> items) { return Expr::list(Expr::Op::Max, items); }
inline Expr min_of(std::initializer_list<Expr> items) { return Expr::list(Expr::Op::Min, items); }
inline Expr floor_of(Expr a) { return Expr::unary(Expr::Op::Floor, std::move(a)); }
inline Expr ceil_of(Expr a) { return Expr::unary(Expr::Op::Ceil, std::move(a)); }
inline Expr pow_of(Expr a, Expr b) { return Expr::join(Expr::Op::Pow, std::move(a), std::move(b)); }
// Σ of a list built in a loop (empty: 0).
Expr sum_of(std::vector<Expr> items);
Expr max_of(std::vector<Expr> items);

}  // namespace tierscope::model
