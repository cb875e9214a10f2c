package bench

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"sync"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// floodServe is a stdio MCP server that answers initialize (with the
// version asked for), refuses server/discover, answers every other request
// with an empty result and, once the client says it is initialized, sends
// notifications/message lines numbered 1, 2, … until its output closes.
func floodServe(in io.Reader, out io.Writer) error {
	w := bufio.NewWriterSize(out, 64<<10)
	var mu sync.Mutex
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return w.Flush()
	}
	initialized := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(nil, 1<<20)
		once := sync.Once{}
		for sc.Scan() {
			m, err := jsonrpc.DecodeMessage(sc.Bytes())
			if err != nil {
				continue
			}
			switch {
			case m.Method == mcp.MethodInitialize && m.ID != nil:
				var p struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				_ = json.Unmarshal(m.Params, &p)
				_ = send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
					"protocolVersion": p.ProtocolVersion, "capabilities": map[string]any{"logging": map[string]any{}},
					"serverInfo": map[string]any{"name": "flood", "version": "1"}}})
			case m.ID != nil && m.Method == "server/discover":
				_ = send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": mcp.CodeMethodNotFound, "message": "no server/discover"}})
			case m.ID != nil && m.Method != "":
				_ = send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}})
			case m.Method == mcp.MethodNotifyInitialized:
				once.Do(func() { close(initialized) })
			}
		}
	}()
	<-initialized
	var line []byte
	for n := 1; ; n++ {
		line = append(line[:0], `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":`...)
		line = append(strconv.AppendInt(line, int64(n), 10), "}}\n"...)
		mu.Lock()
		_, err := w.Write(line)
		if err == nil && n%256 == 0 {
			err = w.Flush()
		}
		mu.Unlock()
		if err != nil {
			return err
		}
	}
}
