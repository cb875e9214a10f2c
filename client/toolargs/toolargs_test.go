package toolargs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sumSchema is the TypeScript everything server's get-sum, with more.
const sumSchema = `{"type":"object","properties":{
	"a":{"type":"number","description":"First number"},
	"b":{"type":"number","description":"Second number"},
	"n":{"type":"integer","minimum":1,"maximum":10,"description":"How many"},
	"ok":{"type":"boolean"},
	"mode":{"type":"string","enum":["fast","slow"]},
	"level":{"oneOf":[{"const":1,"title":"Low"},{"const":2,"title":"High"}]},
	"tags":{"type":"array","items":{"type":"string"}},
	"opt":{"type":["string","null"]},
	"maybe":{"anyOf":[{"type":"integer"},{"type":"null"}]},
	"free":{},
	"ref":{"$ref":"#/$defs/color"},
	"text":{"type":"string"}
},"required":["a","b"],"$defs":{"color":{"type":"string","enum":["red","blue"]}}}`

func TestToolArgsConvert(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "note.txt")
	if err := os.WriteFile(file, []byte("line one\nline two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	jsonFile := filepath.Join(dir, "tags.json")
	if err := os.WriteFile(jsonFile, []byte(` ["x", "y"] `+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	numFile := filepath.Join(dir, "n.txt")
	if err := os.WriteFile(numFile, []byte("7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(p) }
	for _, c := range []struct {
		name  string
		words []string
		want  string // the object, or the error's text after "!"
	}{
		{"numbers", []string{"a=2", "b=3.5"}, `{"a":2,"b":3.5}`},
		{"integer normalised", []string{"a=1", "b=2", "n=2.0"}, `{"a":1,"b":2,"n":2}`},
		{"integer exponent", []string{"a=1", "b=2", "n=1e0"}, `{"a":1,"b":2,"n":1}`},
		{"boolean", []string{"a=1", "b=2", "ok=false"}, `{"a":1,"b":2,"ok":false}`},
		{"enum", []string{"a=1", "b=2", "mode=slow"}, `{"a":1,"b":2,"mode":"slow"}`},
		{"const by value", []string{"a=1", "b=2", "level=2"}, `{"a":1,"b":2,"level":2}`},
		{"const by title", []string{"a=1", "b=2", "level=low"}, `{"a":1,"b":2,"level":1}`},
		{"array as JSON", []string{"a=1", "b=2", `tags:=["p","q"]`}, `{"a":1,"b":2,"tags":["p","q"]}`},
		{"array with =", []string{"a=1", "b=2", `tags=["p"]`}, `{"a":1,"b":2,"tags":["p"]}`},
		{"union null", []string{"a=1", "b=2", "opt=null"}, `{"a":1,"b":2,"opt":null}`},
		{"union string", []string{"a=1", "b=2", "opt=hi"}, `{"a":1,"b":2,"opt":"hi"}`},
		{"anyOf types", []string{"a=1", "b=2", "maybe=4"}, `{"a":1,"b":2,"maybe":4}`},
		{"no type JSON", []string{"a=1", "b=2", "free=true"}, `{"a":1,"b":2,"free":true}`},
		{"no type string", []string{"a=1", "b=2", "free=hello"}, `{"a":1,"b":2,"free":"hello"}`},
		{"ref enum", []string{"a=1", "b=2", "ref=red"}, `{"a":1,"b":2,"ref":"red"}`},
		{"string keeps digits", []string{"a=1", "b=2", "text=007"}, `{"a":1,"b":2,"text":"007"}`},
		{"value with =", []string{"a=1", "b=2", "text=x=y"}, `{"a":1,"b":2,"text":"x=y"}`},
		{"at-at", []string{"a=1", "b=2", "text=@@me"}, `{"a":1,"b":2,"text":"@me"}`},
		{"file", []string{"a=1", "b=2", "text=@" + file}, `{"a":1,"b":2,"text":"line one\nline two\n"}`},
		{"json file", []string{"a=1", "b=2", "tags:=@" + jsonFile}, `{"a":1,"b":2,"tags":["x","y"]}`},
		{"number file", []string{"a=1", "b=2", "n=@" + numFile}, `{"a":1,"b":2,"n":7}`},

		{"not a number", []string{"a=abc", "b=2"}, `!argument a: "abc" is not a number (number, "First number")`},
		{"fraction for integer", []string{"a=1", "b=2", "n=1.5"}, `!argument n: "1.5" is not an integer (integer, ≥ 1, ≤ 10, "How many")`},
		{"below minimum", []string{"a=1", "b=2", "n=0"}, `!the arguments do not fit the inputSchema: /n must be ≥ 1`},
		{"yes is no boolean", []string{"a=1", "b=2", "ok=yes"}, `!argument ok: "yes" is not a boolean: give true or false (boolean)`},
		{"outside enum", []string{"a=1", "b=2", "mode=medium"}, `!argument mode: "medium" is not one of fast, slow (string)`},
		{"outside const", []string{"a=1", "b=2", "level=3"}, `!argument level: "3" is not one of 1 (Low), 2 (High)`},
		{"JSON of the wrong type", []string{"a=1", "b=2", `tags:={"x":1}`}, `!argument tags: {"x":1} is an object, not an array (array)`},
		{"bad JSON", []string{"a=1", "b=2", `tags:=[1,`}, `!argument tags: "[1," is not JSON`},
		{"array not JSON", []string{"a=1", "b=2", "tags=p,q"}, `!argument tags: "p,q" is not an array: give it as JSON`},
		{"unknown key", []string{"a=1", "b=2", "mdoe=fast"}, `!argument mdoe: not an argument of the tool; it takes a, b, free,`},
		{"suggestion", []string{"a=1", "b=2", "mdoe=fast"}, `did you mean mode?`},
		{"twice", []string{"a=1", "a=2", "b=2"}, `!argument a: given twice`},
		{"missing", []string{"a=1"}, `!missing required argument b (number, "Second number")`},
		{"no equals", []string{"a"}, `!"a" is not KEY=VALUE, KEY:=JSON or KEY=@FILE`},
		{"no key", []string{"=1"}, `!"=1" has no KEY before its =`},
		{"no file", []string{"a=1", "b=2", "text=@" + filepath.Join(dir, "absent")}, `!argument text: open `},
		{"empty at", []string{"a=1", "b=2", "text=@"}, `!argument text: @ names no file`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ForTool(json.RawMessage(sumSchema), c.words, read)
			if want, isErr := strings.CutPrefix(c.want, "!"); isErr || strings.HasPrefix(c.want, "did") {
				if c.want[0] != '!' {
					want = c.want
				}
				var e *Error
				if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
					t.Fatalf("ForTool(%q) = %s, %v; want an *Error holding %q", c.words, got, err, want)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("ForTool(%q) = %s, %v; want %s", c.words, got, err, c.want)
			}
		})
	}
}

func TestToolArgsUndeclaredKeys(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		ok           bool
	}{
		{"no properties, nothing said", `{"type":"object"}`, true},
		{"empty schema", ``, true},
		{"empty properties", `{"type":"object","properties":{}}`, false},
		{"properties, nothing said", `{"type":"object","properties":{"a":{}}}`, false},
		{"additionalProperties true", `{"type":"object","properties":{"a":{}},"additionalProperties":true}`, true},
		{"additionalProperties schema", `{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}}`, true},
		{"additionalProperties false", `{"type":"object","additionalProperties":false}`, false},
		{"pattern", `{"type":"object","properties":{"a":{}},"patternProperties":{"^x":{"type":"integer"}}}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ForTool(json.RawMessage(c.schema), []string{"xkey=5"}, nil)
			if c.ok && (err != nil || string(got) != `{"xkey":5}`) {
				t.Fatalf("ForTool = %s, %v; want {\"xkey\":5}", got, err)
			}
			if !c.ok && err == nil {
				t.Fatalf("ForTool = %s; want the key refused", got)
			}
		})
	}
}

func TestToolArgsSchemaThatDoesNotCompile(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer"}},"$ref":"https://elsewhere.invalid/schema.json"}`
	args, err := Convert(json.RawMessage(schema), []string{"n=3"}, nil)
	if err != nil || string(args.Object) != `{"n":3}` || len(args.Warnings) != 1 || !strings.Contains(args.Warnings[0], "does not compile") {
		t.Fatalf("Convert = %+v, %v; want {\"n\":3} and a warning", args, err)
	}
	if _, err := Convert(json.RawMessage(schema), []string{"n=x"}, nil); err == nil {
		t.Fatal("a wrong type was let through a schema that does not compile")
	}
}

func TestToolArgsNoWords(t *testing.T) {
	got, err := ForTool(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`), nil, nil)
	if err != nil || string(got) != `{}` {
		t.Fatalf("ForTool = %s, %v; want {}", got, err)
	}
}

func TestToolArgsPrompt(t *testing.T) {
	declared := `[{"name":"city","description":"City name","required":true},{"name":"state","required":false}]`
	for _, c := range []struct {
		name  string
		words []string
		want  string
	}{
		{"values", []string{"city=Paris", "state=ÎdF"}, `{"city":"Paris","state":"ÎdF"}`},
		{"json string", []string{`city:="Lyon"`}, `{"city":"Lyon"}`},
		{"number is text", []string{"city=42"}, `{"city":"42"}`},
		{"json number refused", []string{"city:=42"}, `!prompt arguments are strings`},
		{"unknown", []string{"city=x", "sate=y"}, `!argument sate: not an argument of the prompt; it takes city, state; did you mean state?`},
		{"missing", []string{"state=x"}, `!missing required argument city ("City name")`},
		{"twice", []string{"city=a", "city=b"}, `!given twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ForPrompt(json.RawMessage(declared), c.words, nil)
			if want, isErr := strings.CutPrefix(c.want, "!"); isErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("ForPrompt(%q) = %v, %v; want an error holding %q", c.words, got, err, want)
				}
				return
			}
			b, _ := json.Marshal(got)
			if err != nil || string(b) != c.want {
				t.Fatalf("ForPrompt(%q) = %s, %v; want %s", c.words, b, err, c.want)
			}
		})
	}
	if _, err := ForPrompt(nil, []string{"x=1"}, nil); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Fatalf("ForPrompt without arguments = %v", err)
	}
}

func TestToolArgsRefCycle(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"$ref":"#/$defs/x"}]}}}`
	if _, err := Convert(json.RawMessage(schema), []string{"a=1"}, nil); err != nil && strings.Contains(err.Error(), "panic") {
		t.Fatal(err)
	}
}

// FuzzForTool: whatever the schema and the words, ForTool returns JSON or
// an error, never a panic, and its JSON is one valid object.
func FuzzForTool(f *testing.F) {
	f.Add(sumSchema, "a=1\x00b:=2\x00n=1.5")
	f.Add(`{"properties":{"x":{"oneOf":[{"const":"a"}]}},"additionalProperties":false}`, "x=a\x00y=b")
	f.Add(`{"$defs":{"x":{"$ref":"#/$defs/x"}},"properties":{"a":{"$ref":"#/$defs/x"}}}`, "a=@@x")
	f.Add(`{"properties":{"a":{"type":["integer","null"],"enum":[1,null]}}}`, "a:=null\x00=\x00a")
	f.Add(`{"$ref":"#/$defs/A","$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}],"anyOf":[{"properties":{"z":{"type":"integer"}}},{"properties":{"z":{"type":"string"}}}]}}}`, "z=1\x00zz=2")
	f.Add(`{"oneOf":[{"$ref":"#/definitions/B"},true,7],"definitions":{"B":{"properties":{"k":{"const":"b"}},"required":["k"]}}}`, "k=b")
	f.Fuzz(func(t *testing.T, schema, words string) {
		got, err := ForTool(json.RawMessage(schema), strings.Split(words, "\x00"), nil)
		if err == nil && (!json.Valid(got) || got[0] != '{') {
			t.Fatalf("ForTool = %q, not one JSON object", got)
		}
		_, _ = ForPrompt(json.RawMessage(schema), strings.Split(words, "\x00"), nil)
	})
}
