import io.github.toolconformance.adapter.Implementation;
import io.github.toolconformance.adapter.Json;
import io.github.toolconformance.adapter.Manifest;
import io.github.toolconformance.adapter.Session;
import io.github.toolconformance.adapter.Tool;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * An MCP server on the MCP Java SDK ({@code io.modelcontextprotocol.sdk:mcp}), as its users write
 * one, for {@code tool-conformance run --mcp-server}: the harness is its MCP client over stdio.
 *
 * <p>Every tool of the run's manifest ({@code TOOL_CONFORMANCE_MANIFEST}) is a {@code
 * McpSchema.Tool} whose input schema is the tool's JSON Schema, given as JSON text ({@code
 * Tool.Builder.inputSchema(McpJsonMapper, String)}, the way a user with a JSON Schema registers
 * it), with a call handler that appends what it received to the record ({@code
 * TOOL_CONFORMANCE_RECORD}, the Java kit's {@code Manifest.record}) and returns "ok". The server is
 * {@code McpServer.sync} over {@code StdioServerTransportProvider} with the SDK's defaults (which
 * validate each call's arguments against the tool's input schema before the handler runs). Nothing
 * here validates, repairs or rewrites arguments. A tool the SDK refuses to build is left out of
 * tools/list, and the record says so before the server serves ({@code Manifest.refuse}, with the
 * SDK's error): the harness declines that tool's cases with it.
 */
public final class Server {
  private Server() {}

  /** The package measured, as Maven spells it: the name the server gives in initialize. */
  static final String PACKAGE = "io.modelcontextprotocol.sdk:mcp";

  /** The tool of one manifest entry, or the SDK's refusal (thrown). */
  static McpSchema.Tool tool(McpJsonMapper mapper, Tool tool) {
    McpSchema.Tool.Builder builder = McpSchema.Tool.builder().name(tool.name());
    if (tool.description() != null) builder.description(tool.description());
    return builder.inputSchema(mapper, Json.write(tool.inputSchema())).build();
  }

  /** The specification of one tool: its handler records what it received and answers "ok". */
  static SyncToolSpecification recording(McpSchema.Tool tool) {
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              String said = Manifest.record(tool.name(), request.arguments());
              return McpSchema.CallToolResult.builder().addTextContent(said).build();
            })
        .build();
  }

  public static void main(String[] args) {
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    List<SyncToolSpecification> tools = new ArrayList<>();
    for (Tool entry : Manifest.load()) {
      try {
        tools.add(recording(tool(mapper, entry)));
      } catch (RuntimeException refused) {
        String why = "McpSchema.Tool.Builder.inputSchema refused the schema: " + refused.getClass().getSimpleName() + ": " + refused.getMessage();
        Manifest.refuse(entry.name(), why.replace('\n', ' '));
      } catch (Throwable bug) {
        Session.adapterBug(bug);
      }
    }
    McpSyncServer server =
        McpServer.sync(new StdioServerTransportProvider(mapper))
            .serverInfo(PACKAGE, String.valueOf(Implementation.installedVersion("io.modelcontextprotocol.sdk", "mcp")))
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .tools(tools)
            .build();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
  }
}
