package screentest

import (
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ListFixture are list items as servers send them, by list method: a
// tool that is not an object, annotations, templates with operators.
var ListFixture = map[string]string{
	mcp.MethodToolsList: `[
		{"name":"echo","title":"Echo Tool","description":"Echoes back the input string","inputSchema":{"type":"object"},
		 "annotations":{"readOnlyHint":true,"idempotentHint":true}},
		{"name":"delete_file","description":"Deletes a file\nfor good","annotations":{"readOnlyHint":false,"destructiveHint":true}},
		{"name":"search","description":"Search the web","annotations":{"openWorldHint":true}},
		{"name":"get-sum","description":"Returns the sum of two numbers"},
		"not an object"]`,
	mcp.MethodResourcesList: `[
		{"uri":"demo://resource/static/document/architecture.md","name":"architecture.md","mimeType":"text/markdown",
		 "description":"Static document file exposed from /docs: architecture.md"},
		{"uri":"file:///srv/logo.png","name":"logo","title":"The logo","mimeType":"image/png"}]`,
	mcp.MethodResourceTemplatesList: `[
		{"uriTemplate":"demo://resource/dynamic/text/{resourceId}","name":"Dynamic Text Resource","mimeType":"text/plain",
		 "description":"Plaintext dynamic resource fabricated from the {resourceId} variable"},
		{"uriTemplate":"https://api.example.com/repos/{owner}/{repo}/issues{?state,labels}","name":"issues"}]`,
	mcp.MethodPromptsList: `[
		{"name":"args-prompt","title":"Arguments Prompt","description":"A prompt with two arguments, one required and one optional",
		 "arguments":[{"name":"city","description":"Name of the city","required":true},{"name":"state","description":"Name of the state"}]},
		{"name":"simple-prompt","description":"A prompt without arguments"}]`,
}
