package copilot

import "github.com/agentfmt/agentfmt/internal/parsers"

// data holds the JSON text of the data fields the parser reads, found in
// one walk over the object (a Get per field would scan it once each). The
// same key means one thing across event types, so one struct serves all.
type data struct {
	messageID, deltaContent, content, transformedContent, reasoningText string
	model, chosenModel, selectedModel, newModel                         string
	toolCallID, toolName, arguments, partialOutput, progressMessage     string
	mcpServerName, mcpToolName, toolTitle, shellToolInfo                string
	success, result, errorText, message, errorType, errorMessage        string
	parentToolCallID, aborted, reason, shutdownType, errorReason        string
	summary, operation, agentName, agentDisplayName                     string
	serverName, status, servers, sessionID, context                     string
	inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost  string
}

// readData reads the data object of a session event.
func readData(l *parsers.Line) data {
	var d data
	raw := l.Get("data").Raw
	if len(raw) < 2 || raw[0] != '{' {
		return d
	}
	for f := l.FieldsOf(raw); f.Next(); {
		v := f.Raw
		switch f.Key {
		case "messageId":
			d.messageID = v
		case "deltaContent":
			d.deltaContent = v
		case "content":
			d.content = v
		case "transformedContent":
			d.transformedContent = v
		case "reasoningText":
			d.reasoningText = v
		case "model":
			d.model = v
		case "chosenModel":
			d.chosenModel = v
		case "selectedModel":
			d.selectedModel = v
		case "newModel":
			d.newModel = v
		case "toolCallId":
			d.toolCallID = v
		case "toolName":
			d.toolName = v
		case "arguments":
			d.arguments = v
		case "partialOutput":
			d.partialOutput = v
		case "progressMessage":
			d.progressMessage = v
		case "mcpServerName":
			d.mcpServerName = v
		case "mcpToolName":
			d.mcpToolName = v
		case "toolTitle":
			d.toolTitle = v
		case "shellToolInfo":
			d.shellToolInfo = v
		case "success":
			d.success = v
		case "result":
			d.result = v
		case "error":
			d.errorText = v
		case "message":
			d.message = v
		case "errorType":
			d.errorType = v
		case "errorMessage":
			d.errorMessage = v
		case "parentToolCallId":
			d.parentToolCallID = v
		case "aborted":
			d.aborted = v
		case "reason":
			d.reason = v
		case "shutdownType":
			d.shutdownType = v
		case "errorReason":
			d.errorReason = v
		case "summary":
			d.summary = v
		case "operation":
			d.operation = v
		case "agentName":
			d.agentName = v
		case "agentDisplayName":
			d.agentDisplayName = v
		case "serverName":
			d.serverName = v
		case "status":
			d.status = v
		case "servers":
			d.servers = v
		case "sessionId":
			d.sessionID = v
		case "context":
			d.context = v
		case "inputTokens":
			d.inputTokens = v
		case "outputTokens":
			d.outputTokens = v
		case "cacheReadTokens":
			d.cacheReadTokens = v
		case "cacheWriteTokens":
			d.cacheWriteTokens = v
		case "cost":
			d.cost = v
		}
	}
	return d
}
