package findings

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of one session's memory.
const (
	// maxPending is how many unanswered requests a session remembers.
	maxPending = 4096
	// maxAnswered is how many answered requests a session remembers, to
	// tell a second answer.
	maxAnswered = 1024
	// maxTools is how many tools' outputSchemas a session remembers.
	maxTools = 1024
	// maxMethod is the longest method name a remembered request keeps:
	// longer than any the detector judges.
	maxMethod = 64
)

// session is what a detector knows of one session: its era, the
// requests awaiting an answer, those answered lately, the tools listed.
// Requests and tools are remembered by a hash (key) of their id or name,
// so that a long id costs no more than a short one.
type session struct {
	// modern says the session speaks 2026-07-28: a request that carried
	// its _meta got a result, or an initialize agreed on it.
	modern bool
	// agreed says an initialize got a result: the era is the version it
	// agreed on, whatever a probe before it was answered.
	agreed   bool
	pending  bounded[uint64, request]
	answered bounded[uint64, struct{}]
	// forgot says a request was forgotten unanswered: an answer to an
	// unknown id may then answer it, and is not reported.
	forgot bool
	tools  bounded[uint64, *tool]
	// schemaBytes counts the bytes of the outputSchemas put in tools, at
	// least those held (Detector.budget).
	schemaBytes int
	// tasks are the tools whose tools/call became a task, by the hash of
	// the task's id: its result is judged when tasks/get brings it.
	tasks bounded[uint64, uint64]
	http  bool // its frames came over HTTP
	// deprecated are the deprecated features reported: each once a
	// session.
	deprecated map[string]bool
}

// request is a request awaiting its answer.
type request struct {
	method string // cut to maxMethod bytes
	tool   uint64 // tools/call: the hash of the tool's name
	task   uint64 // tasks/get: the hash of the task's id
	modern bool   // it carried the 2026-07-28 _meta
}

// tool is a listed tool's outputSchema and the judge of its results.
type tool struct {
	name   string
	schema json.RawMessage // the outputSchema judge holds, for a judgement apart (Deferred)
	judge  func(result json.RawMessage) *client.ToolFailure
	// apart is schema compiled apart, once for every judgement of the
	// tool's results left to a caller (Deferred.Compiled) while the
	// listing holds.
	apart func() (*schemacheck.Schema, error)
	size  int // the bytes of its outputSchema, counted against maxSchemaBytes
}

// Compilers of a tool's outputSchema: variables so that a test can count
// the compilations.
var (
	compileSchema = schemacheck.Compile
	compileApart  = schemacheck.CompileApart
)

// newTool is a listed tool whose results schema judges; size is the bytes
// of the outputSchema its listing gave. Neither judge compiles schema
// before a result needs it.
func newTool(name string, schema json.RawMessage, size int) *tool {
	return &tool{
		name: name, schema: schema, size: size,
		judge: client.ToolResultCheckerWith(name, schema, compileSchema),
		apart: sync.OnceValues(func() (*schemacheck.Schema, error) { return compileApart(schema) }),
	}
}

// newSession returns a session that has seen nothing.
func newSession() *session {
	return &session{
		deprecated: map[string]bool{},
		pending:    newBounded[uint64, request](maxPending),
		answered:   newBounded[uint64, struct{}](maxAnswered),
		tools:      newBounded[uint64, *tool](maxTools),
		tasks:      newBounded[uint64, uint64](maxPending),
	}
}

// missed says frames of the session went unread: any request may have
// been sent or answered unseen, so no answer is reported as unknown or
// second.
func (s *session) missed() {
	s.forgot = true
	s.answered.clear()
}

// once says whether the deprecation code is reported for the first time
// in the session, and notes it.
func (s *session) once(code string) bool {
	if s.deprecated[code] {
		return false
	}
	s.deprecated[code] = true
	return true
}

// keySeed seeds the hashes that name requests and tools: random, so that
// a server cannot choose ids that collide.
var keySeed = maphash.MakeSeed()

// idKey names a request by who sent it and its id: a hash of both.
func idKey(sentBy capture.Dir, id jsonrpc.ID) uint64 {
	var h maphash.Hash
	h.SetSeed(keySeed)
	_ = h.WriteByte(byte(sentBy))
	_, _ = h.WriteString(id.Key())
	return h.Sum64()
}

// nameKey names a tool or a task by a hash of its name or id.
func nameKey(name string) uint64 { return maphash.String(keySeed, name) }

// modernMeta reads the protocol version a request's _meta names.
func modernMeta(params json.RawMessage) bool {
	var p struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	return bytes.Contains(params, []byte(mcp.MetaProtocolVersion)) && json.Unmarshal(params, &p) == nil && mcp.IsModernVersion(p.Meta.Version)
}
