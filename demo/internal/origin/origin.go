// Package origin is the demo servers' Origin check against DNS rebinding:
// the allow-list of `mcpscope serve --origin`.
package origin

import "strings"

// Allowed accepts a request without Origin (origin ""), or one whose
// Origin is on the list, compared without case and trailing slash; "*" on
// the list accepts any.
func Allowed(list []string, origin string) bool {
	if origin == "" {
		return true
	}
	for _, o := range list {
		if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), strings.TrimSuffix(origin, "/")) {
			return true
		}
	}
	return false
}
