// mark3labs/mcp-go's default server (no input schema validation) as an MCP server on stdio, for
// `tool-conformance run --mcp-server`.
package main

import "github.com/tool-conformance/tool-conformance/examples/adapters/mcp-go/tool"

func main() { tool.Serve("mcp-go", false) }
