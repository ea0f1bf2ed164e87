// Errors as data: a stable code plus the field, the offending value and what is allowed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tierscope::model {

// Codes are stable: tests, the CLI and the UI branch on them, never on message wording.
enum class ErrorCode : std::uint8_t {
  UnknownKey = 1,   // a key that is not a scenario parameter
  WrongType,        // e.g. a string where a number is expected
  NotFinite,        // NaN or infinity
  OutOfRange,       // below min or above max, or not an integer where one is needed
  BadEnum,          // not one of the allowed names
  BadSyntax,        // unparsable text (JSON, number, list, layer modes)
  TooLarge,         // input longer than the accepted limit
  Markup,           // characters that could carry markup or script into a page
  DuplicateKey,     // the same key twice in one input
  Inconsistent,     // each value is fine alone, but together they contradict
  UnknownPreset,    // preset name not in the catalog
  Infeasible,       // the setup cannot run: it does not fit, or asks beyond what the model can do
  MissingField,     // a field the input must give is absent (a config.json without num_hidden_layers)
  UnknownFamily,    // a model family (config.json model_type or architecture) the reader does not know
  Unrepresentable,  // a known model whose layers the scenario cannot describe (recurrent, linear attention)
  NotReady,         // the page's app has not started yet (a call before window.tierscope.ready resolves)
  Unavailable,      // this build of the app does not offer the operation
};
constexpr ErrorCode kLastErrorCode = ErrorCode::Unavailable;

// The code's stable name ("out-of-range"), and the words a notice says for it ("is out of range"): one
// table, read by messages, the CLI and the page's catalog.
const char* error_code_name(ErrorCode code);
const char* error_code_reason(ErrorCode code);

// How a refusal's message reads, in pieces: "<field>: '<value>' is not allowed (<code>); allowed: <allowed>",
// with "input" for no field, "(empty)" for no value and no "; allowed: …" when nothing is said. The page's
// catalog hands these pieces to the page (errorWording), which writes its own early refusals with them.
struct ErrorWording {
  const char* message;      // "{field}: {value} is not allowed ({code})"
  const char* allowed;      // "; allowed: {allowed}", appended when something is allowed
  const char* value;        // "'{value}'"
  const char* empty_value;  // "(empty)"
  const char* empty_field;  // "input"
};
extern const ErrorWording kErrorWording;

struct Error {
  ErrorCode code = ErrorCode::BadSyntax;
  std::string field;    // parameter key or input position
  std::string value;    // the offending value, shortened if long
  std::string allowed;  // what would have been accepted

  // "<field>: <value> is not allowed (<code>); allowed: <allowed>"
  std::string message() const;
};

using Errors = std::vector<Error>;

// Builds an Error, shortening very long values so messages stay readable.
Error make_error(ErrorCode code, std::string_view field, std::string_view value, std::string_view allowed);

}  // namespace tierscope::model
