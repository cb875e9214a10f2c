package demo

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Name and Version are the serverInfo of the demo server.
const (
	Name    = "mcpscope-demo"
	Version = "0.1.0"
)

// DefaultInlineLimit is the largest read_file payload returned inline by a
// transport without execution streams.
const DefaultInlineLimit = 1 << 20

// Options configure a Server. The zero value is usable.
type Options struct {
	// SandboxRoot is the directory read_file serves. Empty: a fresh temporary
	// directory holding a few sample files, removed by Close.
	SandboxRoot string
	// InlineLimit is the largest read_file payload returned inline where the
	// transport has no streams (default DefaultInlineLimit).
	InlineLimit int64
	// Logger receives the server's diagnostics (nil: discarded).
	Logger *slog.Logger
	// ToolDescriptions replaces the descriptions of the tools it names
	// (`mcpscope serve --tool-description NAME=TEXT`): a server that
	// changed, for regression checks such as `mcpscope replay --against`.
	// A name that is no tool of the demo is refused.
	ToolDescriptions map[string]string
	// SkillTamper serves the release-notes skill with a SKILL.md that
	// does not match its skills/list entry: one of SkillTampers, or ""
	// for the skill as listed.
	SkillTamper string
}

// Tool is one entry of the tool registry.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object
	Handler     ToolHandler
	// Interactive marks a wizard: tools/list says so in the tool's _meta
	// (mcp.MetaInteractiveTool), so that a client starts interactive
	// sessions of these tools only.
	Interactive bool
	// Meta is the rest of the tool's _meta in tools/list (an MCP App's
	// _meta.ui), for a tool that is not a wizard.
	Meta json.RawMessage
}

// Server is the registry of tools, resources and prompts, shared by every
// connection. It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	sandbox *sandbox

	tokenKey []byte // signs the session tokens of stateless wizards

	mu      sync.RWMutex
	tools   map[string]Tool
	wizards map[string]*wizard
}

// New builds a server with every built-in tool registered.
func New(opts Options) (*Server, error) {
	if opts.InlineLimit <= 0 {
		opts.InlineLimit = DefaultInlineLimit
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := checkSkillTamper(opts.SkillTamper); err != nil {
		return nil, err
	}
	sb, err := openSandbox(opts.SandboxRoot)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, log: opts.Logger, sandbox: sb, tools: make(map[string]Tool),
		wizards: make(map[string]*wizard), tokenKey: make([]byte, 32)}
	_, _ = rand.Read(s.tokenKey) // never fails (crypto/rand)
	for _, t := range s.builtinTools() {
		if err := s.Register(t); err != nil {
			_ = sb.close()
			return nil, err
		}
	}
	for _, w := range builtinWizards() {
		if err := s.registerWizard(w); err != nil {
			_ = sb.close()
			return nil, err
		}
	}
	if err := s.describeTools(opts.ToolDescriptions); err != nil {
		_ = sb.close()
		return nil, err
	}
	return s, nil
}

// Close releases the sandbox (and removes it when New created it).
func (s *Server) Close() error { return s.sandbox.close() }

// SandboxRoot returns the directory read_file serves.
func (s *Server) SandboxRoot() string { return s.sandbox.dir }

// Register adds a tool; a name that is taken is refused.
func (s *Server) Register(t Tool) error {
	if t.Name == "" || t.Handler == nil {
		return fmt.Errorf("a tool needs a name and a handler")
	}
	if len(t.InputSchema) == 0 {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tools[t.Name]; ok {
		return fmt.Errorf("tool %q is registered already", t.Name)
	}
	s.tools[t.Name] = t
	return nil
}

// describeTools replaces the description of each tool named in d.
func (s *Server) describeTools(d map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, text := range d {
		t, ok := s.tools[name]
		if !ok {
			return fmt.Errorf("the demo has no tool named %q to describe", name)
		}
		t.Description = text
		s.tools[name] = t
	}
	return nil
}

// Tools lists the registered tools by name.
func (s *Server) Tools() []Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Tool, 0, len(s.tools))
	for _, t := range s.tools {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// tool looks a tool up by name.
func (s *Server) tool(name string) (Tool, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.tools[name]
	return t, ok
}

// Initialize answers the params of initialize: the client's protocol
// version when it is a known legacy one, else the newest legacy version.
func (s *Server) Initialize(params json.RawMessage) (mcp.InitializeResult, *jsonrpc.Error) {
	var p mcp.InitializeParams
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return mcp.InitializeResult{}, invalidParams("initialize params are malformed: %v", err)
		}
	}
	version := mcp.LatestLegacy
	if mcp.IsLegacyVersion(p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	return mcp.InitializeResult{ProtocolVersion: version, Capabilities: capabilities(), ServerInfo: serverInfo(), Instructions: instructions}, nil
}

// Discover answers server/discover (2026-07-28) with what initialize
// declares: the capabilities, the instructions and, in _meta, the
// serverInfo. It lists 2026-07-28 as the one supported version; a transport
// that also serves the initialize era adds those versions. The core itself
// answers server/discover with -32601: only a transport that serves
// stateless requests (Streamable HTTP) offers it.
func (s *Server) Discover() mcp.DiscoverResult {
	info, err := json.Marshal(serverInfo())
	meta := map[string]json.RawMessage{}
	if err == nil {
		meta[mcp.MetaServerInfo] = info
	}
	return mcp.DiscoverResult{ResultType: mcp.ResultTypeComplete, SupportedVersions: []string{mcp.Modern},
		Capabilities: capabilities(), Instructions: instructions, Meta: meta}
}

// instructions are the demo's instructions to the client.
const instructions = "Reference server of mcpscope: echo, read_file, analyze, tone, misbehave, " +
	"the template tools, the interactive sessions (book_trip, register_user, " +
	"upload_report, book_trip_stateless: interaction.start) and elicit_all, elicit_url."

// serverInfo names the demo server.
func serverInfo() mcp.Implementation {
	return mcp.Implementation{Name: Name, Version: Version, Title: "mcpscope demo server"}
}

// capabilities are what the demo server offers.
func capabilities() mcp.ServerCapabilities {
	return mcp.ServerCapabilities{
		Tools:       &mcp.ListChangedCapability{},
		Prompts:     &mcp.ListChangedCapability{},
		Resources:   &mcp.ResourcesCapability{},
		Logging:     mcp.EmptyObject,
		Extensions:  skillsCapability(),
		Unknown:     map[string]json.RawMessage{"interactive": interactiveEntry()},
		Completions: mcp.EmptyObject, // completions.go answers for the prompts and the template
	}
}

// listTools answers tools/list: the registry's tools and a connection's
// own (added; one whose name the registry has is not listed), by name.
func (s *Server) listTools(added []Tool) mcp.ListToolsResult {
	tools := s.Tools()
	for _, t := range added {
		if _, taken := s.tool(t.Name); !taken {
			tools = append(tools, t)
		}
	}
	sort.SliceStable(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	res := mcp.ListToolsResult{Tools: make([]mcp.Tool, 0, len(tools))}
	for _, t := range tools {
		res.Tools = append(res.Tools, mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Meta: t.meta()})
	}
	return res
}

// ListedTools are the tools tools/list serves on a connection that added
// none of its own: the definitions a client on a transport with no
// tools/list (tools-http, tools-ws) can be handed instead.
func (s *Server) ListedTools() []mcp.Tool { return s.listTools(nil).Tools }

// meta is the tool's _meta in tools/list: a wizard says it is one.
func (t Tool) meta() json.RawMessage {
	if !t.Interactive {
		return t.Meta
	}
	return json.RawMessage(`{"` + mcp.MetaInteractiveTool + `":true}`)
}
