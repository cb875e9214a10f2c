package cli

import (
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/dial"
)

// newTransport builds the transport the target asks for.
func newTransport(t Target, o dial.Options) (client.Transport, error) {
	return dial.Transport(t.endpoint(), o)
}

// checkTransportName rejects a --transport value mcpscope does not know.
func checkTransportName(name string) error { return dial.CheckName(name) }

// parseEnv validates --env entries (K=V with a non-empty K).
func parseEnv(entries []string) ([]string, error) {
	for _, kv := range entries {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--env %q is not of the form KEY=VALUE", kv)
		}
	}
	return entries, nil
}

// configHeaders returns the headers of a configured server that no
// --header of the same name replaces.
func configHeaders(config, line []string) []string {
	replaced := map[string]bool{}
	for _, h := range line {
		name, _, _ := strings.Cut(h, ":")
		replaced[strings.ToLower(strings.TrimSpace(name))] = true
	}
	var out []string
	for _, h := range config {
		name, _, _ := strings.Cut(h, ":")
		if !replaced[strings.ToLower(strings.TrimSpace(name))] {
			out = append(out, h)
		}
	}
	return out
}
