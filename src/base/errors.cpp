// Error codes and their messages.
#include "base/errors.h"

namespace tierscope::model {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::UnknownKey: return "unknown-key";
    case ErrorCode::WrongType: return "wrong-type";
    case ErrorCode::NotFinite: return "not-finite";
    case ErrorCode::OutOfRange: return "out-of-range";
    case ErrorCode::BadEnum: return "bad-enum";
    case ErrorCode::BadSyntax: return "bad-syntax";
    case ErrorCode::TooLarge: return "too-large";
    case ErrorCode::Markup: return "markup";
    case ErrorCode::DuplicateKey: return "duplicate-key";
    case ErrorCode::Inconsistent: return "inconsistent";
    case ErrorCode::UnknownPreset: return "unknown-preset";
    case ErrorCode::Infeasible: return "infeasible";
    case ErrorCode::MissingField: return "missing-field";
    case ErrorCode::UnknownFamily: return "unknown-family";
    case ErrorCode::Unrepresentable: return "unrepresentable";
  }
  return "error";
}

std::string Error::message() const {
  std::string m = field.empty() ? std::string("input") : field;
  m += ": ";
  m += value.empty() ? std::string("(empty)") : ("'" + value + "'");
  m += " is not allowed (";
  m += error_code_name(code);
  m += ")";
  if (!allowed.empty()) {
    m += "; allowed: ";
    m += allowed;
  }
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
