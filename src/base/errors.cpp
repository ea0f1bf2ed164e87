// Error codes and their messages.
#include "base/errors.h"

#include <initializer_list>
#include <iterator>
#include <string_view>
#include <utility>

namespace tierscope::model {

namespace {

struct CodeWords {
  ErrorCode code;
  const char* name;    // stable: tests, the CLI and the page branch on it
  const char* reason;  // what a notice says of the field ("“ctx” is out of range")
};
// In ErrorCode order, from UnknownKey (1).
constexpr CodeWords kCodes[] = {
    {ErrorCode::UnknownKey, "unknown-key", "is not a known setting"},
    {ErrorCode::WrongType, "wrong-type", "has the wrong type"},
    {ErrorCode::NotFinite, "not-finite", "is not a finite number"},
    {ErrorCode::OutOfRange, "out-of-range", "is out of range"},
    {ErrorCode::BadEnum, "bad-enum", "is not one of the choices"},
    {ErrorCode::BadSyntax, "bad-syntax", "cannot be read"},
    {ErrorCode::TooLarge, "too-large", "is too long"},
    {ErrorCode::Markup, "markup", "contains markup or script characters"},
    {ErrorCode::DuplicateKey, "duplicate-key", "appears twice"},
    {ErrorCode::Inconsistent, "inconsistent", "contradicts another setting"},
    {ErrorCode::UnknownPreset, "unknown-preset", "is not a preset"},
    {ErrorCode::Infeasible, "infeasible", "asks for more than the setup can run"},
    {ErrorCode::MissingField, "missing-field", "is missing"},
    {ErrorCode::UnknownFamily, "unknown-family", "is a model family this reader does not know"},
    {ErrorCode::Unrepresentable, "unrepresentable", "has layers the scenario cannot describe"},
    {ErrorCode::NotReady, "not-ready", "was asked for before the app started"},
    {ErrorCode::Unavailable, "unavailable", "is not offered by this build of the app"},
};
static_assert(std::size(kCodes) == static_cast<std::size_t>(kLastErrorCode));
constexpr bool codes_in_order() {
  for (std::size_t i = 0; i < std::size(kCodes); ++i)
    if (static_cast<std::size_t>(kCodes[i].code) != i + 1) return false;
  return true;
}
static_assert(codes_in_order(), "kCodes lists every ErrorCode once, in order");

const CodeWords* words_of(ErrorCode code) {
  const auto i = static_cast<std::size_t>(code);
  return i >= 1 && i <= std::size(kCodes) ? &kCodes[i - 1] : nullptr;
}

}  // namespace

const char* error_code_name(ErrorCode code) {
  const CodeWords* w = words_of(code);
  return w ? w->name : "error";
}

const char* error_code_reason(ErrorCode code) {
  const CodeWords* w = words_of(code);
  return w ? w->reason : "was refused";
}

const ErrorWording kErrorWording = {"{field}: {value} is not allowed ({code})", "; allowed: {allowed}", "'{value}'", "(empty)", "input"};

namespace {

// `words` with each "{name}" slot of `slots` replaced by its text (a slot's text is never read again).
std::string fill(std::string_view words, std::initializer_list<std::pair<std::string_view, std::string_view>> slots) {
  std::string out;
  for (std::size_t i = 0; i < words.size();) {
    bool done = false;
    for (const auto& [name, text] : slots) {
      if (words.substr(i).starts_with("{") && words.substr(i + 1).starts_with(name) && words.substr(i + 1 + name.size()).starts_with("}")) {
        out += text;
        i += name.size() + 2;
        done = true;
        break;
      }
    }
    if (!done) out += words[i++];
  }
  return out;
}

}  // namespace

std::string Error::message() const {
  const ErrorWording& w = kErrorWording;
  const std::string shown = value.empty() ? std::string(w.empty_value) : fill(w.value, {{"value", value}});
  std::string m = fill(w.message, {{"field", field.empty() ? std::string_view(w.empty_field) : std::string_view(field)},
                                   {"value", shown}, {"code", error_code_name(code)}});
  if (!allowed.empty()) m += fill(w.allowed, {{"allowed", allowed}});
  return m;
}

Error make_error(ErrorCode code, std::string_view field, std::string_view value, std::string_view allowed) {
  // Long inputs (a 100 kB hash) must not be echoed whole into a message or a page.
  constexpr std::size_t kMaxEcho = 80;
  Error e;
  e.code = code;
  e.field = std::string(field.substr(0, kMaxEcho));
  if (value.size() > kMaxEcho) {
    e.value = std::string(value.substr(0, kMaxEcho)) + "... (" + std::to_string(value.size()) + " chars)";
  } else {
    e.value = std::string(value);
  }
  // Never echo characters that could open markup in a page that shows the message.
  for (char& c : e.value) {
    if (c == '<' || c == '>' || c == '"' || c == '\'' || c == '`' || c == '&') c = '?';
  }
  e.allowed = std::string(allowed);
  return e;
}

}  // namespace tierscope::model
