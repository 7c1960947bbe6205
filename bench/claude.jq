if .type=="assistant" then (.message.content[]? | if .type=="text" then .text elif .type=="tool_use" then "> \(.name) \(.input|tostring|.[0:200])" else empty end)
elif .type=="user" then (.message.content[]? | select(type=="object" and .type=="tool_result") | "  < \(.content|tostring|.[0:200])")
elif .type=="result" then "done \(.total_cost_usd) \(.num_turns)" else empty end
