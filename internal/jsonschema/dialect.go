package jsonschema

import (
	"fmt"
	"strings"
)

// dialect is the JSON Schema draft a schema is written in.
type dialect uint8

const (
	draft4    dialect = 4
	draft6    dialect = 6
	draft7    dialect = 7
	draft2019 dialect = 19
	draft2020 dialect = 20
)

// dialectOf reads a $schema URI; any but the published drafts is refused,
// as its keywords cannot be known.
func dialectOf(uri string) (dialect, error) {
	u := strings.TrimSuffix(uri, "#")
	if rest, ok := strings.CutPrefix(u, "https://"); ok {
		u = rest
	} else {
		u = strings.TrimPrefix(u, "http://")
	}
	switch u {
	case "json-schema.org/draft-04/schema":
		return draft4, nil
	case "json-schema.org/draft-06/schema":
		return draft6, nil
	case "json-schema.org/draft-07/schema":
		return draft7, nil
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, nil
	case "json-schema.org/draft/2020-12/schema", "json-schema.org/schema":
		return draft2020, nil
	}
	return 0, fmt.Errorf("the $schema %q is not a JSON Schema draft this validator knows (draft-04, -06, -07, 2019-09, 2020-12)", uri)
}

// idKeyword is the keyword that gives a schema its URI.
func (d dialect) idKeyword() string {
	if d == draft4 {
		return "id"
	}
	return "$id"
}

// refAlone reports whether $ref replaces the keywords beside it (draft-07
// and older) rather than applying with them.
func (d dialect) refAlone() bool { return d <= draft7 }

// has reports whether a keyword introduced in 2019-09 or 2020-12 belongs
// to the dialect; older keywords apply in every dialect.
func (d dialect) has(keyword string) bool {
	switch keyword {
	case "$recursiveRef":
		return d == draft2019
	case "prefixItems", "$dynamicRef", "$dynamicAnchor":
		return d >= draft2020
	case "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
		"minContains", "maxContains", "$anchor":
		return d >= draft2019
	}
	return true
}
