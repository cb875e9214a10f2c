package cli

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/proto/httphead"
)

// secretName reports whether an environment variable, header, argument or
// query parameter name says it holds a credential: the names
// httphead.SecretHeader flags, and any holding auth, key, cookie, credential
// or pass.
func secretName(name string) bool {
	if httphead.SecretHeader(name) {
		return true
	}
	n := strings.ToLower(name)
	for _, part := range []string{"auth", "key", "cookie", "credential", "pass"} {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

// variableRef matches one ${…} reference of a config value.
var variableRef = regexp.MustCompile(`\$\{[^}]*\}`)

// redacted is how a secret value is listed: its length only. A value
// that is only variable references (with an auth scheme before them) holds
// no secret itself and is shown as written.
func redacted(v string) string {
	rest := strings.TrimSpace(variableRef.ReplaceAllString(v, ""))
	if variableRef.MatchString(v) {
		switch strings.ToLower(rest) {
		case "", "bearer", "basic", "token":
			return v
		}
	}
	return fmt.Sprintf("<redacted %d bytes>", len(v))
}

// redactServer returns s as `mcpscope servers` shows it: the values of
// its secret arguments, URL parts, variables and headers redacted.
func redactServer(s mcpconfig.Server) mcpconfig.Server {
	s.Args = redactArgs(s.Args)
	s.URL = redactURL(s.URL)
	s.Env = redactPairs(s.Env)
	s.Headers = redactPairs(s.Headers)
	return s
}

// redactPairs returns a copy of ps with the value of each secret-named
// pair redacted.
func redactPairs(ps []mcpconfig.Pair) []mcpconfig.Pair {
	if ps == nil {
		return nil
	}
	out := make([]mcpconfig.Pair, len(ps))
	for i, p := range ps {
		if secretName(p.Name) {
			p.Value = redacted(p.Value)
		}
		out[i] = p
	}
	return out
}

// redactArgs hides the value of a secret flag or assignment: --token=V,
// the argument after --token, API_KEY=V.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	hideNext := false
	for i, a := range args {
		switch {
		case hideNext:
			out[i], hideNext = redacted(a), false
		case strings.HasPrefix(a, "-"):
			name, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			out[i] = a
			if secretName(name) {
				if hasValue {
					out[i] = a[:len(a)-len(v)] + redacted(v)
				} else {
					hideNext = true
				}
			}
		default:
			out[i] = a
			if name, v, ok := strings.Cut(a, "="); ok && v != "" && secretName(name) {
				out[i] = name + "=" + redacted(v) // API_KEY=… on a command line
			}
		}
	}
	return out
}

// redactURL hides a URL's password and the values of its secret query
// parameters; the rest is shown as written.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if p, ok := u.User.Password(); ok {
		raw = strings.Replace(raw, ":"+p+"@", ":"+redacted(p)+"@", 1)
	}
	base, query, ok := strings.Cut(raw, "?")
	if !ok {
		return raw
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	parts := strings.Split(query, "&")
	for i, part := range parts {
		k, v, _ := strings.Cut(part, "=")
		if name, err := url.QueryUnescape(k); err == nil && (secretName(name) || httphead.SecretParam(name)) {
			parts[i] = k + "=" + redacted(v)
		}
	}
	out := base + "?" + strings.Join(parts, "&")
	if hasFragment {
		out += "#" + fragment
	}
	return out
}
