// mark3labs/mcp-go's server with server.WithInputSchemaValidation() as an MCP server on stdio,
// for `tool-conformance run --mcp-server`; the tools are registered by the mcp-go row's package.
package main

import "github.com/tool-conformance/tool-conformance/examples/adapters/mcp-go/tool"

func main() { tool.Serve("mcp-go-validated", true) }
