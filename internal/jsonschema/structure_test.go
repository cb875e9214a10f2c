package jsonschema

import (
	"reflect"
	"testing"
)

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
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}`, `{"x-a":1,"y":0}`, "type@/x-a additionalProperties@"},
		{"patternProperties Go cannot compile", `{"patternProperties":{"(?=a)":{"type":"string"}},"additionalProperties":false}`, `{"a":1}`, ""},
		{"propertyNames", `{"propertyNames":{"maxLength":2}}`, `{"ab":0,"abc":1}`, "propertyNames@"},
		{"dependentRequired", `{"dependentRequired":{"a":["b","c"]}}`, `{"a":0,"c":1}`, "dependentRequired@"},
		{"dependentRequired unused", `{"dependentRequired":{"a":["b"]}}`, `{"c":0}`, ""},
		{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":0}`, "required@"},
		{"draft-07 dependencies array", `{` + draft7URI + `"dependencies":{"a":["b"]}}`, `{"a":0}`, "dependencies@"},
		{"draft-07 dependencies schema", `{` + draft7URI + `"dependencies":{"a":{"properties":{"b":{"type":"string"}}}}}`, `{"a":0,"b":1}`, "type@/b"},
		{"draft-07 ignores dependentRequired", `{` + draft7URI + `"dependentRequired":{"a":["b"]}}`, `{"a":0}`, ""},
		{"object keywords ignore strings", `{"required":["a"],"minProperties":3}`, `"s"`, ""},
	})
	fails := validate(t, `{"properties":{"a":{}},"additionalProperties":false,"required":["x","y"]}`, `{"z":0,"a":1,"w":2}`)
	if !reflect.DeepEqual(fails[0].Kind, Required{Missing: []string{"x", "y"}}) {
		t.Errorf("required failure %#v", fails[0].Kind)
	}
	if !reflect.DeepEqual(fails[1].Kind, AdditionalProperties{Properties: []string{"z", "w"}}) {
		t.Errorf("additionalProperties failure %#v", fails[1].Kind)
	}
	fails = validate(t, `{"dependentRequired":{"a":["b","c"]}}`, `{"a":0}`)
	if !reflect.DeepEqual(fails[0].Kind, DependentRequired{Property: "a", Missing: []string{"b", "c"}}) {
		t.Errorf("dependentRequired failure %#v", fails[0].Kind)
	}
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
		{"items after prefix", `{"prefixItems":[{}],"items":{"type":"string"}}`, `[1,2]`, "type@/1"},
		{"draft-07 tuple", `{` + draft7URI + `"items":[{"type":"string"}],"additionalItems":false}`, `["a",2]`, "additionalItems@"},
		{"draft-07 additionalItems schema", `{` + draft7URI + `"items":[{}],"additionalItems":{"type":"string"}}`, `[1,2]`, "type@/1"},
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
	})
	fails := validate(t, `{"uniqueItems":true,"minItems":9}`, `[0,"x",1,"x",0]`)
	if !reflect.DeepEqual(fails[0].Kind, MinItems{Want: 9, Got: 5}) || !reflect.DeepEqual(fails[1].Kind, UniqueItems{Duplicates: [2]int{1, 3}}) {
		t.Errorf("failures %#v %#v", fails[0].Kind, fails[1].Kind)
	}
	fails = validate(t, `{"prefixItems":[{},{}],"items":false}`, `[0,1,2,3]`)
	if !reflect.DeepEqual(fails[0].Kind, AdditionalItems{Allowed: 2, Got: 4}) {
		t.Errorf("failure %#v", fails[0].Kind)
	}
	fails = validate(t, `{"contains":{"const":1},"minContains":3,"maxContains":0}`, `[1,1]`)
	if !reflect.DeepEqual(fails[0].Kind, MinContains{Want: 3, Got: 2}) || !reflect.DeepEqual(fails[1].Kind, MaxContains{Want: 0, Got: 2}) {
		t.Errorf("failures %#v %#v", fails[0].Kind, fails[1].Kind)
	}
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
	fails := validate(t, `{"anyOf":[{"required":["phone"]},{"properties":{"email":{"type":"string"}}, "required":["email"]}]}`, `{"email":3}`)
	a, ok := fails[0].Kind.(AnyOf)
	if !ok || len(a.Causes) != 2 || summary(a.Causes[0]) != "required@" || summary(a.Causes[1]) != "type@/email" {
		t.Fatalf("anyOf failure %#v", fails[0].Kind)
	}
	fails = validate(t, `{"oneOf":[{"minimum":0},{"maximum":10},{"const":3}]}`, `3`)
	if o, ok := fails[0].Kind.(OneOf); !ok || !reflect.DeepEqual(o.Matched, []int{0, 1}) || o.Causes != nil {
		t.Errorf("oneOf failure %#v", fails[0].Kind)
	}
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
	fails := validate(t, `{"contains":{"type":"string"},"unevaluatedItems":false}`, `["a",1,"b",2]`)
	if !reflect.DeepEqual(fails[0].Kind, UnevaluatedItems{Indexes: []int{1, 3}}) {
		t.Errorf("failure %#v", fails[0].Kind)
	}
}
