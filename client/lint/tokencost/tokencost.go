// Package tokencost counts what each tool, prompt and resource template a
// server offers costs in a model's context, with real tokenizers.
//
// What is counted, by default, is what a host puts in the model's context
// (Entry.ForModel): for a tool the function-calling definition every
// major host sends — its name, description and input schema, as the
// server sent them, in compact JSON — and not its icons, annotations,
// output schema or _meta; for a prompt its name, description and
// arguments; for a resource template its URI template, name, description
// and type. The whole listing entry can be counted instead (CountEntry).
//
// The encodings are OpenAI's BPE tables, embedded in the binary by
// github.com/tiktoken-go/tokenizer: counting works offline. A table is
// loaded the first time it is counted with, never when mcpscope starts.
package tokencost

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encodings are the tokenizer encodings counted by default, in order.
var Encodings = []string{string(tokenizer.O200kBase), string(tokenizer.Cl100kBase)}

// Known lists every encoding Count knows, in a stable order.
func Known() []string {
	return []string{string(tokenizer.O200kBase), string(tokenizer.Cl100kBase),
		string(tokenizer.P50kBase), string(tokenizer.R50kBase)}
}

// codecs holds each encoding's codec, built once, on first use.
var codecs sync.Map // encoding → func() (tokenizer.Codec, error)

// codec returns the codec of encoding, loading its table on first use.
func codec(encoding string) (tokenizer.Codec, error) {
	if !slices.Contains(Known(), encoding) {
		return nil, fmt.Errorf("unknown tokenizer encoding %q (known: %s)", encoding, strings.Join(Known(), ", "))
	}
	load, _ := codecs.LoadOrStore(encoding, sync.OnceValues(func() (tokenizer.Codec, error) {
		return tokenizer.Get(tokenizer.Encoding(encoding))
	}))
	return load.(func() (tokenizer.Codec, error))()
}

// Count returns the number of tokens text costs in encoding: the
// tokenizer library's own count, special tokens read as plain text.
func Count(encoding, text string) (int, error) {
	c, err := codec(encoding)
	if err != nil {
		return 0, err
	}
	n, err := c.Count(text)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", encoding, err)
	}
	return n, nil
}

// count is Count; tests put a slow one in its place.
var count = Count

// CountContext is Count bounded by ctx: a text built to make the
// tokenizer slow (a megabyte with no space in it) costs no more than the
// time ctx leaves. On ctx's end it returns ctx's error at once; the count
// already under way finishes in the background and is dropped.
func CountContext(ctx context.Context, encoding, text string) (int, error) {
	if ctx.Err() != nil {
		return 0, fmt.Errorf("counting %s tokens: %w", encoding, context.Cause(ctx))
	}
	type counted struct {
		n   int
		err error
	}
	done := make(chan counted, 1)
	go func() {
		n, err := count(encoding, text)
		done <- counted{n, err}
	}()
	select {
	case c := <-done:
		return c.n, c.err
	case <-ctx.Done():
		return 0, fmt.Errorf("counting %s tokens: %w", encoding, context.Cause(ctx))
	}
}
