package skills

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// escapesRefused are the percent-escapes a skill URI may not hold: an
// encoded ".", "/" or "\" would let a path read as one thing and resolve
// as another.
var escapesRefused = []string{"%2e", "%2f", "%5c"}

// uriPath parses a skill:// URI and returns its path with the authority
// as the first segment (skill://a/b/c → a/b/c). It refuses what could
// resolve outside the path as written: a query, a fragment, a user, a
// backslash, an encoded ".", "/" or "\", and empty, "." or ".." segments.
func uriPath(uri string) (string, error) {
	lower := strings.ToLower(uri)
	for _, e := range escapesRefused {
		if strings.Contains(lower, e) {
			return "", fmt.Errorf("it holds the escape %s", strings.ToUpper(e))
		}
	}
	if strings.ContainsAny(uri, `\?#`) {
		return "", fmt.Errorf(`it holds a "\", "?" or "#"`)
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("it is no URI: %w", err)
	}
	if u.Scheme != mcp.SkillScheme || u.Opaque != "" || u.User != nil || u.Host == "" {
		return "", fmt.Errorf("it is not %s://NAME/…", mcp.SkillScheme)
	}
	p := u.Host + u.Path
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("it has an empty, \".\" or \"..\" segment")
		}
	}
	if path.Clean(p) != p {
		return "", fmt.Errorf("its path is not clean")
	}
	return p, nil
}

// insideProblem says why the file uri is not inside the skill directory
// whose path (from uriPath) is dir, or "".
func insideProblem(dir, uri string) string {
	outside := "the file is not inside the skill's directory " + mcp.SkillScheme + "://" + dir
	p, err := uriPath(uri)
	switch {
	case err != nil:
		return outside + ": " + err.Error()
	case !strings.HasPrefix(p, dir+"/"):
		return outside
	}
	return ""
}
