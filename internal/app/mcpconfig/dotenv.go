package mcpconfig

import (
	"fmt"
	"strings"
)

// ParseDotenv reads an env file: KEY=VALUE lines, an optional "export "
// before the key, blank lines and # comments skipped, and a value between
// matching single or double quotes taken without them.
func ParseDotenv(data []byte) ([]Pair, error) {
	var out []Pair
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || !shellName(k) {
			return nil, fmt.Errorf("line %d is not KEY=VALUE", n+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		out = append(out, Pair{k, v})
	}
	return out, nil
}
