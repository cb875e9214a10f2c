// Package against replays a recording against a live server and compares
// the answers: it reads the client's requests from a recording (Read),
// sends them again over a Peer in order (Replayer), answering the server's
// questions with the answers the recording holds, and says for each
// request whether the new answer is the same, differs (and where), failed
// or was skipped. It is what `mcpscope replay FILE --against TARGET` runs.
package against
