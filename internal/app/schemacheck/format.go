package schemacheck

import (
	"errors"
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// formatChecks are the formats mcpscope asserts, each with its check. Any
// string passes a format not named here, whatever the library knows of it.
var formatChecks = map[string]func(string) bool{
	"date": isDate, "date-time": isDateTime, "time": isTime, "duration": isDuration,
	"email": isEmail, "hostname": isHostname, "ipv4": isIPv4, "ipv6": isIPv6,
	"uri": isURI, "uri-reference": isURIReference, "uuid": isUUID,
}

// libraryFormats are the formats the library asserts unless told
// otherwise; "regex" is checked through goRegexp.
var libraryFormats = []string{
	"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6", "hostname", "email",
	"date", "time", "date-time", "uri", "iri", "uri-reference", "iri-reference", "uri-template", "semver",
}

// errFormat is the failure of a string that is not of its format.
var errFormat = errors.New("not of the format")

// registerFormats makes c assert mcpscope's formats and no others.
func registerFormats(c *jsonschema.Compiler) {
	for _, name := range libraryFormats {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
	for name, check := range formatChecks {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(v any) error {
			if s, ok := v.(string); ok && !check(s) {
				return errFormat
			}
			return nil
		}})
	}
}

// regexpEngine compiles patterns with Go's regexp. While the schema
// compiles (compiling reports true), a pattern Go cannot compile matches
// everything, so that it is not enforced; afterwards, when the format
// "regex" checks a value, a string broken in its structure (isRegex) is an
// error, and one using syntax only ECMAScript has passes.
func regexpEngine(compiling func() bool) jsonschema.RegexpEngine {
	return func(pattern string) (jsonschema.Regexp, error) {
		re, err := regexp.Compile(pattern)
		switch {
		case err == nil:
			return re, nil
		case !compiling() && !isRegex(pattern):
			return nil, err
		}
		return anything(pattern), nil
	}
}

// anything is a pattern that is not enforced.
type anything string

// MatchString matches every string.
func (anything) MatchString(string) bool { return true }

// String is the pattern.
func (a anything) String() string { return string(a) }
