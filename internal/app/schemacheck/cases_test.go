package schemacheck

import "testing"

// Object keywords, each failure at the instance location of the value
// concerned.
func TestObjectKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"properties", `{"properties":{"a":{"type":"string"},"b":{"minimum":0}}}`, `{"a":1,"b":-1}`, "type@/a minimum@/b"},
		{"properties nested", `{"properties":{"a":{"properties":{"b/c":{"properties":{"d~e":{"type":"null"}}}}}}}`,
			`{"a":{"b/c":{"d~e":0}}}`, "type@/a/b~1c/d~0e"},
		{"required", `{"required":["a","b"]}`, `{"a":0}`, "required@"},
		{"required ignores arrays", `{"required":["a"]}`, `[]`, ""},
		{"minProperties", `{"minProperties":2}`, `{"a":0}`, "minProperties@"},
		{"maxProperties", `{"maxProperties":1}`, `{"a":0,"b":1}`, "maxProperties@"},
		{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, `{"a":0,"b":1,"c":2}`, "additionalProperties@"},
		{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, `{"a":"x","b":"y"}`, "type@/b"},
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":1,"y":0}`, "additionalProperties@ type@/x-a"},
		{"patternProperties Go cannot compile", `{"patternProperties":{"(?=a)":{"type":"string"}},"additionalProperties":false}`, `{"a":1}`, "type@/a"},
		{"propertyNames", `{"propertyNames":{"maxLength":2}}`, `{"ab":0,"abc":1}`, "propertyNames@"},
		{"dependentRequired", `{"dependentRequired":{"a":["b","c"]}}`, `{"a":0,"c":1}`, "dependentRequired@"},
		{"dependentRequired unused", `{"dependentRequired":{"a":["b"]}}`, `{"c":0}`, ""},
		{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":0}`, "required@"},
		{"draft-07 dependencies array", `{` + draft7URI + `"dependencies":{"a":["b"]}}`, `{"a":0}`, "dependencies@"},
		{"draft-07 dependencies schema", `{` + draft7URI + `"dependencies":{"a":{"properties":{"b":{"type":"string"}}}}}`, `{"a":0,"b":1}`, "type@/b"},
		{"draft-07 ignores dependentRequired", `{` + draft7URI + `"dependentRequired":{"a":["b"]}}`, `{"a":0}`, ""},
		{"object keywords ignore strings", `{"required":["a"],"minProperties":3}`, `"s"`, ""},
	})
}

// Array keywords, in the 2020-12 form (prefixItems, items) and in the
// draft-07 form (items array, additionalItems).
func TestArrayKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"items", `{"items":{"type":"integer"}}`, `[1,"a",2,null]`, "type@/1 type@/3"},
		{"items nested", `{"items":{"items":{"const":0}}}`, `[[0],[0,1]]`, "const@/1/1"},
		{"prefixItems", `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}`, `["a",1]`, ""},
		{"prefixItems refused", `{"prefixItems":[{"type":"string"},{"type":"integer"}]}`, `[1,"a"]`, "type@/0 type@/1"},
		{"items false after prefix", `{"prefixItems":[{}],"items":false}`, `[1,2,3]`, "items@"},
		{"draft-07 tuple", `{` + draft7URI + `"items":[{"type":"string"}],"additionalItems":false}`, `["a",2]`, "additionalItems@"},
		{"draft-07 additionalItems without tuple", `{` + draft7URI + `"items":{},"additionalItems":false}`, `[1,2]`, ""},
		{"draft-07 ignores prefixItems", `{` + draft7URI + `"prefixItems":[{"type":"string"}]}`, `[1]`, ""},
		{"minItems", `{"minItems":2}`, `[1]`, "minItems@"},
		{"maxItems", `{"maxItems":1}`, `[1,2]`, "maxItems@"},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,{"a":[1]},2,{"a":[1.0]}]`, "uniqueItems@"},
		{"uniqueItems distinct", `{"uniqueItems":true}`, `[1,"1",true,[1],{"1":1}]`, ""},
		{"uniqueItems false", `{"uniqueItems":false}`, `[1,1]`, ""},
		{"contains", `{"contains":{"type":"string"}}`, `[1,2]`, "contains@"},
		{"contains met", `{"contains":{"type":"string"}}`, `[1,"a"]`, ""},
		{"contains empty array", `{"contains":{}}`, `[]`, "contains@"},
		{"minContains", `{"contains":{"type":"string"},"minContains":2}`, `["a",1]`, "minContains@"},
		{"minContains zero", `{"contains":{"type":"string"},"minContains":0}`, `[]`, ""},
		{"maxContains", `{"contains":{"type":"string"},"maxContains":1}`, `["a","b"]`, "maxContains@"},
		{"draft-07 contains ignores minContains", `{` + draft7URI + `"contains":{"const":1},"minContains":2}`, `[1]`, ""},
		{"array keywords ignore objects", `{"minItems":1,"items":false}`, `{}`, ""},
		{"items after prefix", `{"prefixItems":[{}],"items":{"type":"string"}}`, `[1,2]`, "type@/1"},
		{"draft-07 additionalItems schema", `{` + draft7URI + `"items":[{}],"additionalItems":{"type":"string"}}`, `[1,2]`, "type@/1"},
	})
}

// allOf, anyOf, oneOf, not, if/then/else and boolean schemas; a failed
// anyOf or oneOf carries each alternative's failures.
func TestApplicators(t *testing.T) {
	runCases(t, []validateCase{
		{"allOf", `{"allOf":[{"minimum":2},{"multipleOf":2}]}`, `3`, "multipleOf@"},
		{"allOf flat", `{"properties":{"a":{"allOf":[{"type":"string"},{"minLength":1}]}}}`, `{"a":5}`, "type@/a"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, `null`, ""},
		{"anyOf refused", `{"anyOf":[{"type":"string"},{"minimum":5}]}`, `1`, "anyOf@"},
		{"oneOf", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `1`, ""},
		{"oneOf two", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, "oneOf@"},
		{"oneOf none", `{"oneOf":[{"type":"string"},{"type":"null"}]}`, `1`, "oneOf@"},
		{"not", `{"not":{"type":"string"}}`, `"a"`, "not@"},
		{"not passes", `{"not":{"type":"string"}}`, `1`, ""},
		{"if then", `{"if":{"properties":{"a":{"const":1}}},"then":{"required":["b"]},"else":{"required":["c"]}}`, `{"a":1}`, "required@"},
		{"if else", `{"if":{"properties":{"a":{"const":1}}},"then":{"required":["b"]},"else":{"required":["c"]}}`, `{"a":2,"c":0}`, ""},
		{"then without if", `{"then":false}`, `1`, ""},
		{"true", `true`, `{"a":[1]}`, ""},
		{"false", `false`, `1`, "false@"},
		{"false property", `{"properties":{"a":false}}`, `{"a":1}`, "false@/a"},
		{"empty schema", `{}`, `[1,{"x":null}]`, ""},
	})
}

// unevaluatedProperties and unevaluatedItems see what the subschemas that
// passed evaluated.
func TestUnevaluated(t *testing.T) {
	runCases(t, []validateCase{
		{"properties through allOf", `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, "unevaluatedProperties@"},
		{"all evaluated", `{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"unevaluatedProperties":false}`, `{"a":1,"b":2}`, ""},
		{"failed branch evaluates nothing", `{"anyOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{}}}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, "unevaluatedProperties@"},
		{"through $ref", `{"$ref":"#/$defs/a","unevaluatedProperties":false,"$defs":{"a":{"properties":{"a":{}}}}}`, `{"a":1}`, ""},
		{"schema", `{"properties":{"a":{}},"unevaluatedProperties":{"type":"string"}}`, `{"a":1,"b":2}`, "type@/b"},
		{"if then", `{"if":{"properties":{"k":{"const":1}}},"then":{"properties":{"v":{}}},"unevaluatedProperties":false}`, `{"k":1,"v":0}`, ""},
		{"items", `{"prefixItems":[{}],"unevaluatedItems":false}`, `[1,2]`, "unevaluatedItems@"},
		{"items through allOf", `{"allOf":[{"prefixItems":[{},{}]}],"unevaluatedItems":false}`, `[1,2]`, ""},
		{"contains evaluates", `{"contains":{"type":"string"},"unevaluatedItems":false}`, `["a",1,"b"]`, "unevaluatedItems@"},
		{"draft-07 ignores", `{` + draft7URI + `"unevaluatedProperties":false}`, `{"a":1}`, ""},
	})
}

// References inside the document: JSON pointers with their escapes, $id
// and $anchor, and the draft-07 rule that $ref stands alone.
func TestRefs(t *testing.T) {
	runCases(t, []validateCase{
		{"root", `{"properties":{"child":{"$ref":"#"}},"type":"object"}`, `{"child":{"child":1}}`, "type@/child/child"},
		{"$defs", `{"$ref":"#/$defs/name","$defs":{"name":{"type":"string"}}}`, `1`, "type@"},
		{"definitions", `{"properties":{"a":{"$ref":"#/definitions/n"}},"definitions":{"n":{"minimum":3}}}`, `{"a":1}`, "minimum@/a"},
		{"escaped ~0 ~1", `{"$ref":"#/$defs/a~1b~0c","$defs":{"a/b~c":{"type":"null"}}}`, `1`, "type@"},
		{"percent-encoded", `{"$ref":"#/$defs/a%20b%25","$defs":{"a b%":{"type":"null"}}}`, `1`, "type@"},
		{"into an array", `{"$ref":"#/allOf/1","allOf":[{},{"type":"null"}]}`, `null`, ""},
		{"unknown place", `{"$ref":"#/components/x","components":{"x":{"type":"null"}}}`, `1`, "type@"},
		{"$anchor", `{"$ref":"#leaf","$defs":{"l":{"$anchor":"leaf","type":"string"}}}`, `1`, "type@"},
		{"$id", `{"$id":"http://example.com/root.json","$ref":"item.json","$defs":{"i":{"$id":"item.json","type":"string"}}}`, `1`, "type@"},
		{"$id then pointer", `{"$id":"http://example.com/r","$ref":"http://example.com/r#/$defs/a","$defs":{"a":{"const":1}}}`, `2`, "const@"},
		{"relative to embedded $id", `{"$defs":{"e":{"$id":"http://x.test/e","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}},"$ref":"http://x.test/e"}`, `1`, "type@"},
		{"draft-07 $id anchor", `{` + draft7URI + `"$ref":"#x","definitions":{"a":{"$id":"#x","type":"string"}}}`, `1`, "type@"},
		{"2019-09 $recursiveRef", `{` + draft2019URI + `"properties":{"c":{"$recursiveRef":"#"}},"maxProperties":1}`, `{"c":{"c":{},"d":1}}`, "maxProperties@/c"},
		{"2020-12 $dynamicRef", `{"$dynamicAnchor":"n","properties":{"c":{"$dynamicRef":"#n"}},"maxProperties":1}`, `{"c":{"c":{},"d":1}}`, "maxProperties@/c"},
		{"2020-12 siblings apply", `{"$ref":"#/$defs/s","maxLength":2,"$defs":{"s":{"type":"string"}}}`, `"abc"`, "maxLength@"},
		{"draft-07 siblings ignored", `{` + draft7URI + `"$ref":"#/definitions/s","maxLength":2,"definitions":{"s":{"type":"string"}}}`, `"abc"`, ""},
		{"draft-07 root ref beside definitions", `{` + draft7URI + `"$ref":"#/definitions/T","definitions":{"T":{"type":"object","required":["q"]}}}`, `{}`, "required@"},
		{"recursion through the value", `{"$defs":{"n":{"properties":{"k":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"}`, `{"k":{"k":{"z":1}}}`, "additionalProperties@/k/k"},
	})
}

// type accepts one name or several; an integer is a number without
// fraction, however written.
func TestType(t *testing.T) {
	runCases(t, []validateCase{
		{"string", `{"type":"string"}`, `"a"`, ""},
		{"not a string", `{"type":"string"}`, `1`, "type@"},
		{"integer", `{"type":"integer"}`, `3`, ""},
		{"1.0 is an integer", `{"type":"integer"}`, `1.0`, ""},
		{"1e2 is an integer", `{"type":"integer"}`, `1e2`, ""},
		{"1.5 is not", `{"type":"integer"}`, `1.5`, "type@"},
		{"integer is a number", `{"type":"number"}`, `3`, ""},
		{"null", `{"type":"null"}`, `null`, ""},
		{"boolean", `{"type":"boolean"}`, `0`, "type@"},
		{"array", `{"type":"array"}`, `{}`, "type@"},
		{"object", `{"type":"object"}`, `[]`, "type@"},
		{"union", `{"type":["string","null"]}`, `null`, ""},
		{"union refused", `{"type":["string","null"]}`, `false`, "type@"},
		{"draft-07", `{` + draft7URI + `"type":"integer"}`, `2.0`, ""},
	})
}

// enum and const compare as JSON: numbers by value, objects whatever their
// member order; the wanted values are reported as written.
func TestEnumAndConst(t *testing.T) {
	runCases(t, []validateCase{
		{"enum string", `{"enum":["a","b"]}`, `"b"`, ""},
		{"enum refused", `{"enum":["a","b"]}`, `"c"`, "enum@"},
		{"enum number by value", `{"enum":[1,2]}`, `1.0`, ""},
		{"enum exact", `{"enum":[0.1]}`, `0.10000000000000001`, "enum@"},
		{"enum object", `{"enum":[{"a":1,"b":[2]}]}`, `{"b":[2.0],"a":1}`, ""},
		{"enum null", `{"enum":[null]}`, `0`, "enum@"},
		{"enum false is not 0", `{"enum":[false]}`, `0`, "enum@"},
		{"const", `{"const":{"x":[1,"y"]}}`, `{"x":[1,"y"]}`, ""},
		{"const refused", `{"const":{"x":[1,"y"]}}`, `{"x":[1,"y"],"z":0}`, "const@"},
		{"const big integers", `{"const":123456789012345678901234567890}`, `123456789012345678901234567891`, "const@"},
		{"const in draft-07", `{` + draft7URI + `"const":"a"}`, `"b"`, "const@"},
	})
}

// String lengths count code points; pattern is Go's regexp, unanchored.
func TestStringKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"minLength", `{"minLength":2}`, `"a"`, "minLength@"},
		{"minLength code points", `{"minLength":2}`, `"é"`, "minLength@"},
		{"maxLength code points", `{"maxLength":2}`, `"日本"`, ""},
		{"maxLength", `{"maxLength":2}`, `"abc"`, "maxLength@"},
		{"lengths ignore numbers", `{"maxLength":0}`, `12`, ""},
		{"pattern", `{"pattern":"^[A-Z]{3}$"}`, `"ABC"`, ""},
		{"pattern refused", `{"pattern":"^[A-Z]{3}$"}`, `"abc"`, "pattern@"},
		{"pattern unanchored", `{"pattern":"b"}`, `"abc"`, ""},
		{"lookahead not enforced", `{"pattern":"^(?=.*[0-9]).+$","minLength":4}`, `"abc"`, "minLength@"},
		{"broken pattern not enforced", `{"pattern":"([a-z]","minLength":4}`, `"abc"`, "minLength@"},
	})
}

// Numeric bounds are exact, in every form: draft-04's booleans too.
func TestNumericKeywords(t *testing.T) {
	runCases(t, []validateCase{
		{"minimum", `{"minimum":1}`, `1`, ""},
		{"minimum refused", `{"minimum":1}`, `0.9999999999999999999`, "minimum@"},
		{"maximum", `{"maximum":10}`, `10.0`, ""},
		{"maximum refused", `{"maximum":10}`, `1e1000`, "maximum@"},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, `0`, "exclusiveMinimum@"},
		{"exclusiveMinimum tiny", `{"exclusiveMinimum":0}`, `1e-1000`, ""},
		{"exclusiveMaximum", `{"exclusiveMaximum":0}`, `-0.0`, "exclusiveMaximum@"},
		{"negative", `{"minimum":-5}`, `-5.5`, "minimum@"},
		{"draft-04 exclusiveMinimum", `{` + draft4URI + `"minimum":0,"exclusiveMinimum":true}`, `0`, "exclusiveMinimum@"},
		{"draft-04 exclusiveMaximum false", `{` + draft4URI + `"maximum":0,"exclusiveMaximum":false}`, `0`, ""},
		{"multipleOf", `{"multipleOf":0.1}`, `0.3`, ""},
		{"multipleOf refused", `{"multipleOf":0.5}`, `0.3`, "multipleOf@"},
		{"multipleOf integer", `{"multipleOf":3}`, `1e20`, "multipleOf@"},
		{"multipleOf fraction of integer", `{"multipleOf":0.01}`, `19.99`, ""},
		{"bounds ignore strings", `{"minimum":5}`, `"1"`, ""},
		{"beyond float64", `{"maximum":1.7976931348623157e308}`, `1.7976931348623158e308`, "maximum@"},
	})
}

// Formats are asserted on strings; unknown formats pass.
func TestFormat(t *testing.T) {
	runCases(t, []validateCase{
		{"date", `{"format":"date"}`, `"2024-02-29"`, ""},
		{"date refused", `{"format":"date"}`, `"2023-02-29"`, "format@"},
		{"email", `{"format":"email"}`, `"ada@example.com"`, ""},
		{"email refused", `{"format":"email"}`, `"not-an-email"`, "format@"},
		{"format ignores numbers", `{"format":"email"}`, `3`, ""},
		{"unknown format", `{"format":"x-color"}`, `"red"`, ""},
		{"draft-07 format", `{` + draft7URI + `"format":"uuid"}`, `"nope"`, "format@"},
	})
}

// When type, const, enum or format fails, the rest of that schema says
// nothing more about the value.
func TestFirstFailureAlone(t *testing.T) {
	runCases(t, []validateCase{
		{"type", `{"type":"string","enum":["a"],"minLength":5}`, `3`, "type@"},
		{"enum", `{"enum":["a"],"maxLength":0}`, `"bb"`, "enum@"},
		{"format", `{"format":"email","maxLength":3}`, `"nope"`, "format@"},
		{"others together", `{"minLength":5,"pattern":"^x"}`, `"ab"`, "minLength@ pattern@"},
	})
}
