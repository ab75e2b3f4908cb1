#pragma once
// JSON Schema -> GBNF, so a schema runs on the same matcher and `grammar check` can show the
// grammar a schema became. Supported: type (one or a list), object properties with required
// and optional keys in the schema's order, additionalProperties (false, true or a schema),
// arrays with items / prefixItems / minItems / maxItems, enum, const, string minLength /
// maxLength and the formats date, time, date-time and uuid, integer minimum / maximum (digit
// patterns, up to 16 digits), number, boolean, null, anyOf / oneOf, allOf of one schema, $ref to #/$defs/... or
// #/definitions/... (recursive definitions included), and {} / true for any value.
// Objects with properties take only those unless additionalProperties says otherwise (as OpenAI's
// strict mode does; every output still validates against the schema); {"type": "object"} alone is
// any object.
// Whitespace between tokens is bounded (at most one line break and 20 spaces or tabs) so a model
// cannot stall in it; integers have at most 16 digits, fractions at most 16.
//
// Anything else a generated output could violate (pattern, multipleOf, exclusive bounds, ...)
// is rejected with the JSON Pointer of the keyword rather than silently ignored.
#include <string>
#include <string_view>

namespace dlab {

// Throws dlab::Error naming `source`, the JSON Pointer and the keyword.
std::string jsonSchemaToGbnf(std::string_view schemaText, const std::string& source = "schema");

// Any JSON value (objectOnly: any JSON object, OpenAI's "JSON mode").
std::string anyJsonGbnf(bool objectOnly);

}  // namespace dlab
