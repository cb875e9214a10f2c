package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is the name the one document being compiled goes by.
const schemaURL = "mcpscope:schema.json"

// cacheSize bounds how many compiled schemas are kept; past it the cache
// starts afresh.
const cacheSize = 256

// Schema is a compiled JSON Schema.
type Schema struct{ s *jsonschema.Schema }

// compiled is a schema text's outcome, kept by the cache.
type compiled struct {
	schema *Schema
	err    error
}

var (
	cacheMu sync.Mutex
	cache   = map[string]compiled{}
)

// Compile compiles a schema document, or returns the one compiled before
// from the same text. A document that is not JSON, breaks its draft's
// meta-schema or refers outside itself is an error.
func Compile(schema json.RawMessage) (*Schema, error) {
	key := string(schema)
	cacheMu.Lock()
	c, ok := cache[key]
	cacheMu.Unlock()
	if ok {
		return c.schema, c.err
	}
	s, err := compile(schema)
	cacheMu.Lock()
	if len(cache) >= cacheSize {
		clear(cache)
	}
	cache[key] = compiled{s, err}
	cacheMu.Unlock()
	return s, err
}

// compile compiles a schema document with nothing loaded from outside it.
func compile(schema json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(goRegexp)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, errors.New(oneLine(err))
	}
	s, err := c.Compile(schemaURL)
	var load *jsonschema.LoadURLError
	switch {
	case errors.As(err, &load):
		return nil, fmt.Errorf("%s names another document; only references inside the schema are followed", load.URL)
	case err != nil:
		return nil, errors.New(oneLine(err))
	}
	return &Schema{s}, nil
}

// noLoader refuses every document outside the schema.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not loaded", url)
}

// goRegexp compiles patterns with Go's regexp; a pattern it cannot compile
// matches everything, so that it is not enforced.
func goRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return anything(pattern), nil
	}
	return re, nil
}

// anything is a pattern that is not enforced.
type anything string

// MatchString matches every string.
func (anything) MatchString(string) bool { return true }

// String is the pattern.
func (a anything) String() string { return string(a) }

// oneLine is err's text with its lines joined.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), schemaURL, "schema")), " ")
}
