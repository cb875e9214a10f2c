package gateway

import "fmt"

// IndexGapError says a chunk of a stream came with an index other than
// the next one: a chunk was lost, repeated or reordered.
type IndexGapError struct {
	Stream GUID  // the stream
	Index  int64 // the chunk's index
	Next   int64 // the index that was next
}

// Error says which stream and which indexes.
func (e *IndexGapError) Error() string {
	return fmt.Sprintf("index gap on stream %s: chunk %d where %d was next", e.Stream, e.Index, e.Next)
}
