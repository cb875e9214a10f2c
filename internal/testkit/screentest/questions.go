package screentest

// ElicitFormSchema is a requestedSchema with one field of each primitive kind
// and a required name.
const ElicitFormSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name"},
	"age":{"type":"integer","minimum":0,"default":30},
	"check":{"type":"boolean","default":true},
	"color":{"type":"string","enum":["red","green"],"default":"green"}},
	"required":["name"]}`

// ElicitFormParams are the params of a form-mode elicitation/create.
const ElicitFormParams = `{"message":"Who are you?","requestedSchema":` + ElicitFormSchema + `}`

// ElicitURLParams are the params of a URL-mode elicitation/create with a long URL.
const ElicitURLParams = `{"mode":"url","message":"Sign in to continue","elicitationId":"el-42",` +
	`"url":"https://auth.example.com/oauth/authorize?client_id=mcpscope-test-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&state=af0ifjsldkj"}`

// SamplingParams are the params of a sampling/createMessage with every
// member the view shows.
const SamplingParams = `{"messages":[
	{"role":"user","content":{"type":"text","text":"What is the capital of France?"}},
	{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]},
	{"role":"user","content":{"type":"text","text":"Answer in one word."}}],
	"systemPrompt":"You are a helpful test server.",
	"modelPreferences":{"hints":[{"name":"claude-3-sonnet"},{"name":"claude"}],"costPriority":0.3,"speedPriority":0.8,"intelligencePriority":0.5},
	"includeContext":"thisServer","temperature":0.7,"maxTokens":100,"stopSequences":["\n\n"]}`
