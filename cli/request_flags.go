package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// logLevels are the levels of logging/setLevel, lowest first (RFC 5424's
// severities, as MCP names them).
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// validateRequestFlags checks --cwd, --log-level and --meta.
func (f *runFlags) validateRequestFlags() error {
	if f.logLevel != "" && !slices.Contains(logLevels, f.logLevel) {
		return usagef("--log-level %s is not a level: give one of %s", quote(f.logLevel), strings.Join(logLevels, ", "))
	}
	if _, err := parseMeta(f.meta); err != nil {
		return err
	}
	if f.cwd != "" {
		st, err := os.Stat(f.cwd)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return usagef("--cwd %s: no such folder", quote(f.cwd))
		case err != nil:
			return usagef("--cwd %s: %w", quote(f.cwd), err)
		case !st.IsDir():
			return usagef("--cwd %s is not a folder", quote(f.cwd))
		}
	}
	return nil
}

// parseMeta turns --meta K=V values into _meta members: V as JSON when it
// parses as JSON, as a string otherwise. A key given twice is refused.
func parseMeta(kvs []string) ([]jsonrpc.Member, error) {
	out := make([]jsonrpc.Member, 0, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("--meta %s is not of the form KEY=VALUE", quote(kv))
		}
		if slices.ContainsFunc(out, func(m jsonrpc.Member) bool { return m.Key == k }) {
			return nil, usagef("--meta %s is given twice", quote(k))
		}
		value := json.RawMessage(strings.TrimSpace(v))
		if !json.Valid(value) {
			value, _ = json.Marshal(v)
		}
		out = append(out, jsonrpc.Member{Key: k, Value: value})
	}
	return out, nil
}

// warnProgressToken says, when --meta sets progressToken beside
// --progress, that the request carries mcpscope's own token instead: the
// progress it prints is matched by that token.
func warnProgressToken(diag *lineWriter, meta []string) {
	members, _ := parseMeta(meta) // validated before connecting
	for _, m := range members {
		if m.Key == mcp.MetaProgressToken {
			diag.Println("warning: --progress sends mcpscope's own _meta.progressToken; it replaces --meta " + mcp.MetaProgressToken)
			return
		}
	}
}

// requestOptions are the call options --meta and --log-level add to each
// request of the command: the _meta members, the log level in _meta
// where the era passes it per request (2026-07-28), and the log lines
// printed before the result.
func (r *run) requestOptions() []client.CallOption {
	meta, _ := parseMeta(r.flags.meta) // validated before connecting
	if r.flags.logLevel != "" && r.session.Era() == client.EraModern {
		meta = append(meta, jsonrpc.Member{Key: mcp.MetaLogLevel, Value: jsonrpc.QuoteJSON(r.flags.logLevel)})
	}
	var opts []client.CallOption
	if len(meta) > 0 {
		opts = append(opts, client.WithMeta(meta...))
	}
	if r.flags.logLevel != "" {
		opts = append(opts, client.WithNotificationsFirst())
	}
	return opts
}

// startLogging, with --log-level, prints every notifications/message on
// stderr and asks the server for the level: logging/setLevel in the
// legacy era; in 2026-07-28, which has no setLevel, each request carries
// it in _meta (requestOptions). A server that refuses setLevel is a
// warning: the command goes on.
func (r *run) startLogging(ctx context.Context) error {
	if r.flags.logLevel == "" {
		return nil
	}
	r.session.Subscribe(func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyMessage {
			r.io.diag.Println(formatLog(m.Params))
		}
	})
	if r.session.Era() == client.EraModern {
		r.session.SetLogLevel(r.flags.logLevel) // every request carries it, a subscription's listen too
		return nil
	}
	if r.session.HandshakeFree() {
		r.io.diag.Println("warning: --log-level: this transport has no session to set a log level on")
		return nil
	}
	_, err := r.session.Call(ctx, mcp.MethodLoggingSetLevel, mcp.SetLevelParams{Level: r.flags.logLevel})
	var rpc *client.RPCError
	if errors.As(err, &rpc) {
		msg := "warning: the server refused logging/setLevel: " + termtext.OneLine(err.Error())
		if !client.Advertised(r.session.ServerCapabilities())["logging"] {
			msg += " (it declares no logging capability)"
		}
		r.io.diag.Println(msg)
		return nil
	}
	return err
}

// formatLog renders the params of a notifications/message as one line,
// "log LEVEL [LOGGER] DATA": data that is a string as its text, any other
// value as its JSON, server text made safe to print.
func formatLog(params json.RawMessage) string {
	var p mcp.LoggingMessageParams
	if json.Unmarshal(params, &p) != nil {
		return "log " + termtext.OneLine(string(params))
	}
	s := "log " + termtext.OneLine(p.Level)
	if p.Logger != "" {
		s += " [" + termtext.OneLine(p.Logger) + "]"
	}
	var text string
	if json.Unmarshal(p.Data, &text) != nil {
		text = string(compactJSON(p.Data))
	}
	return s + " " + termtext.OneLine(text)
}

// compactJSON is v without insignificant white space (v when invalid).
func compactJSON(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}
