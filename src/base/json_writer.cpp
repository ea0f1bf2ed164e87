// The streaming JSON writer's separators and layouts; strings and numbers are base/text.h's.
#include "base/json_writer.h"

#include <cstdio>

#include "base/text.h"

namespace tierscope::model {

namespace {
void indent(std::string& out, int spaces) {
  out += '\n';
  out.append(static_cast<std::size_t>(spaces > 0 ? spaces : 0), ' ');
}
}  // namespace

void JsonWriter::item() {
  if (after_key_) {  // the member's value: the key wrote its colon
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;
  Level& l = levels_[depth_ < kMaxDepth ? depth_ - 1 : kMaxDepth - 1];
  if (l.any) out_ += ',';
  if (l.layout.indent >= 0) indent(out_, l.layout.indent);
  else if (l.any && l.layout.spaced) out_ += ' ';
  l.any = true;
}

JsonWriter& JsonWriter::open(char bracket, JsonLayout layout) {
  item();
  out_ += bracket;
  if (depth_ < kMaxDepth) levels_[depth_] = Level{layout, bracket == '{' ? '}' : ']', false};
  ++depth_;
  return *this;
}

JsonWriter& JsonWriter::end() {
  if (depth_ == 0) return *this;
  const Level& l = levels_[depth_ < kMaxDepth ? depth_ - 1 : kMaxDepth - 1];
  const char close = l.close;
  if (l.any && l.layout.indent >= 0) {
    // Under the parent's items: the parent's indent when it sets them on lines, else the margin.
    const int parent = depth_ >= 2 ? levels_[(depth_ - 2 < kMaxDepth ? depth_ - 2 : kMaxDepth - 1)].layout.indent : 0;
    indent(out_, parent);
  }
  out_ += close;
  --depth_;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  item();
  append_json_string(out_, k);
  const JsonLayout& l = levels_[depth_ > 0 && depth_ <= kMaxDepth ? depth_ - 1 : kMaxDepth - 1].layout;
  out_ += l.spaced ? ": " : ":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::str(std::string_view v) {
  item();
  append_json_string(out_, v);
  return *this;
}

JsonWriter& JsonWriter::num(double v) {
  item();
  append_json_number(out_, v);
  return *this;
}

JsonWriter& JsonWriter::integer(long long v) {
  item();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  item();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  item();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::fixed(double v, int decimals) {
  item();
  appendf(out_, "%.*f", decimals, v);
  return *this;
}

JsonWriter& JsonWriter::sig(double v, int digits) {
  item();
  appendf(out_, "%.*g", digits, v);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  item();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::str(const char* k, std::string_view v) { return key(k).str(v); }
JsonWriter& JsonWriter::num(const char* k, double v) { return key(k).num(v); }
JsonWriter& JsonWriter::integer(const char* k, long long v) { return key(k).integer(v); }
JsonWriter& JsonWriter::boolean(const char* k, bool v) { return key(k).boolean(v); }
JsonWriter& JsonWriter::object(const char* k, JsonLayout layout) { return key(k).object(layout); }
JsonWriter& JsonWriter::array(const char* k, JsonLayout layout) { return key(k).array(layout); }

}  // namespace tierscope::model
