package skills

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxYAMLValues bounds the values one front matter builds, aliases
// expanded, so that a few anchors cannot stand for a billion values.
const maxYAMLValues = 100_000

// coreRules are the plain scalars of the YAML 1.2 core schema that are
// not strings, compiled on first use: only --verify reads front matter.
var coreRules = sync.OnceValue(func() (r struct{ null, bool, int, oct, hex, float, inf *regexp.Regexp }) {
	r.null = regexp.MustCompile(`^(~|null|Null|NULL|)$`)
	r.bool = regexp.MustCompile(`^(true|True|TRUE|false|False|FALSE)$`)
	r.int = regexp.MustCompile(`^[-+]?[0-9]+$`)
	r.oct = regexp.MustCompile(`^0o[0-7]+$`)
	r.hex = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	r.float = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	r.inf = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$`)
	return r
})

// coreBuilder turns a YAML node into the values a YAML 1.2 core-schema
// reader gives, as JSON would decode them: a timestamp stays a string, a
// number with leading zeros is decimal, a null key is "".
type coreBuilder struct{ values int }

// value builds the value of n.
func (b *coreBuilder) value(n *yaml.Node) (any, error) {
	if b.values++; b.values > maxYAMLValues {
		return nil, fmt.Errorf("it builds more than %d values", maxYAMLValues)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return b.value(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, errors.New("an alias names no anchor")
		}
		return b.value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := b.value(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return b.mapping(n)
	case yaml.ScalarNode:
		return coreScalar(n)
	}
	return nil, fmt.Errorf("line %d: a node of unknown kind", n.Line)
}

// mapping builds a map; keys become strings as a JSON object's are.
func (b *coreBuilder) mapping(n *yaml.Node) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := b.key(n.Content[i])
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("line %d: the key %q appears twice", n.Content[i].Line, k)
		}
		v, err := b.value(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// key is the string a mapping key stands for: a null key is "", a bool
// or an integer its text as a JSON reader writes it; any other key is
// refused.
func (b *coreBuilder) key(n *yaml.Node) (string, error) {
	v, err := b.value(n)
	if err != nil {
		return "", err
	}
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e21 {
			return strconv.FormatFloat(v, 'f', -1, 64), nil
		}
	}
	return "", fmt.Errorf("line %d: a key that is not a string, a number or null", n.Line)
}

// coreScalar resolves a scalar under the core schema: quoted, block and
// !!str scalars are strings; a plain one is null, a bool, a number or
// else a string.
func coreScalar(n *yaml.Node) (any, error) {
	s := n.Value
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		(n.Style&yaml.TaggedStyle != 0 && n.ShortTag() == "!!str") {
		return s, nil
	}
	core := coreRules()
	switch {
	case core.null.MatchString(s):
		return nil, nil
	case core.bool.MatchString(s):
		return s[0] == 't' || s[0] == 'T', nil
	case core.int.MatchString(s), core.float.MatchString(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("line %d: the number %s: %w", n.Line, s, err)
		}
		return finite(n, f)
	case core.oct.MatchString(s), core.hex.MatchString(s):
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		i, _ := new(big.Int).SetString(s[2:], base)
		f, _ := new(big.Float).SetInt(i).Float64()
		return finite(n, f)
	case core.inf.MatchString(s):
		return nil, fmt.Errorf("line %d: %s is a number JSON cannot hold", n.Line, strings.TrimSpace(s))
	}
	return s, nil
}

// finite refuses a number too large for a JSON reader.
func finite(n *yaml.Node, f float64) (any, error) {
	if math.IsInf(f, 0) {
		return nil, fmt.Errorf("line %d: %s is a number JSON cannot hold", n.Line, n.Value)
	}
	return f, nil
}
