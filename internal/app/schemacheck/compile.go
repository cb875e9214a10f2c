package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// base is where the one document being compiled is taken to be, so that a
// relative reference resolves to another document there, which is not
// loaded; schemaURL is the document.
const (
	base      = "https://mcpscope.invalid/"
	schemaURL = base + "schema.json"
)

// The cache keeps at most cacheSize compiled schemas and cacheBytes bytes
// of their texts; past either it starts afresh. A text over maxCachedText
// bytes is compiled each time it is asked for.
const (
	cacheSize     = 256
	cacheBytes    = 8 << 20
	maxCachedText = 64 << 10
)

// Schema is a compiled JSON Schema.
type Schema struct {
	s     *jsonschema.Schema
	steps *steps
	size  int // the schemas s reaches, booleans included
}

// compiled is a schema text's outcome, kept by the cache.
type compiled struct {
	schema *Schema
	err    error
}

var (
	cacheMu   sync.Mutex
	cache     = map[string]compiled{}
	cacheUsed int // the bytes of cache's keys
)

// Compile compiles a schema document, or returns the one compiled before
// from the same text. A document that is not JSON, breaks its draft's
// meta-schema or refers outside itself is an error.
func Compile(schema json.RawMessage) (*Schema, error) {
	if len(schema) > maxCachedText {
		return compile(schema)
	}
	key := string(schema)
	cacheMu.Lock()
	c, ok := cache[key]
	cacheMu.Unlock()
	if ok {
		return c.schema, c.err
	}
	s, err := compile(schema)
	cacheMu.Lock()
	if _, ok := cache[key]; !ok {
		if len(cache) >= cacheSize || cacheUsed+len(key) > cacheBytes {
			clear(cache)
			cacheUsed = 0
		}
		cache[key] = compiled{s, err}
		cacheUsed += len(key)
	}
	cacheMu.Unlock()
	return s, err
}

// CompileApart compiles a schema document as Compile does, into a Schema
// shared with no other caller: a Schema runs one validation at a time, so
// a long validation on a Schema of its own holds up no caller that
// validates against the same text.
func CompileApart(schema json.RawMessage) (*Schema, error) { return compile(schema) }

// compile compiles a schema document with nothing loaded from outside it.
// A panic of the library is an error, never a crash.
func compile(schema json.RawMessage) (_ *Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema cannot be compiled: %v", r)
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	var size valueSize
	if size.walk(doc, false); size.schemas > maxSubschemas {
		return nil, fmt.Errorf("the schema holds more than %d objects and booleans", maxSubschemas)
	} else if size.huge != "" {
		return nil, fmt.Errorf("the schema holds a number too large to compare: %s", size.huge)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	registerFormats(c)
	markOurs(c)
	c.UseLoader(noLoader{})
	compiling := true
	c.UseRegexpEngine(regexpEngine(func() bool { return compiling }))
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, errors.New(oneLine(err))
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, compileError(doc, err)
	}
	roots := append(anchored(c, doc), s)
	compiling = false
	if err := checkCycles(roots); err != nil {
		return nil, err
	}
	st := &steps{limit: maxSteps}
	return &Schema{s, st, countSteps(roots, st)}, nil
}

// anchored compiles the objects of doc that name a $dynamicAnchor: a
// $dynamicRef may apply one that no other keyword reaches. An object that
// does not compile is passed over.
func anchored(c *jsonschema.Compiler, doc any) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	var walk func(v any, at []string)
	walk = func(v any, at []string) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["$dynamicAnchor"]; ok {
				if s, err := c.Compile(schemaURL + "#" + (&url.URL{Fragment: Pointer(at)}).EscapedFragment()); err == nil {
					out = append(out, s)
				}
			}
			for k, m := range v {
				walk(m, append(at, k))
			}
		case []any:
			for i, m := range v {
				walk(m, append(at, strconv.Itoa(i)))
			}
		}
	}
	walk(doc, nil)
	return out
}

// compileError phrases why a schema does not compile: where it breaks its
// draft's meta-schema and what that wants, the document it names, or the
// library's words.
func compileError(doc any, err error) error {
	var load *jsonschema.LoadURLError
	var meta *jsonschema.SchemaValidationError
	var verr *jsonschema.ValidationError
	switch {
	case errors.As(err, &load):
		if obj, ok := doc.(map[string]any); ok && obj["$schema"] == load.URL {
			return fmt.Errorf("the $schema %q is not a JSON Schema draft mcpscope knows (draft-04, -06, -07, 2019-09, 2020-12)", load.URL)
		}
		return fmt.Errorf("%s names another document; only references inside the schema are followed", strings.TrimPrefix(load.URL, base))
	case errors.As(err, &meta) && errors.As(meta.Err, &verr):
		if f := firstLeaf(failures(verr, doc)); f != nil {
			return fmt.Errorf("at #%s: %s", Pointer(f.Location), f.Message())
		}
	}
	return errors.New(oneLine(err))
}

// firstLeaf is the first failure, looking into the first alternative of a
// failed anyOf or oneOf, whose message says more.
func firstLeaf(fails []*Failure) *Failure {
	if len(fails) == 0 {
		return nil
	}
	if f := fails[0]; len(f.Causes) > 0 {
		if leaf := firstLeaf(f.Causes[0]); leaf != nil {
			return leaf
		}
	}
	return fails[0]
}

// noLoader refuses every document outside the schema.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not loaded", url)
}

// oneLine is err's text with its lines joined.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(err.Error(), schemaURL, "schema"), base, "")), " ")
}
