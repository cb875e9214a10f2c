package findingsview

import "github.com/mcpscope/mcpscope/client/findings"

// DeferOver makes Note leave the judgement of a tool result of more than
// n bytes to the book's reader (findings.Detector.DeferOver), who runs it
// off its own goroutine and hands the findings back with Late.
func (b *Book) DeferOver(n int) { b.d.DeferOver(n) }

// TakeDeferred returns the judgements Note left since the last call.
func (b *Book) TakeDeferred() []findings.Deferred { return b.d.TakeDeferred() }

// Late records the findings of a judgement Note left (a Deferred run).
func (b *Book) Late(fs []findings.Finding) {
	for _, x := range fs {
		b.add(x)
	}
}
