import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import io.github.toolconformance.adapter.Adapter;
import io.github.toolconformance.adapter.Failure;
import io.github.toolconformance.adapter.Handler;
import io.github.toolconformance.adapter.Implementation;
import io.github.toolconformance.adapter.Json;
import io.github.toolconformance.adapter.Rejected;
import io.github.toolconformance.adapter.RuntimeAdapter;
import io.github.toolconformance.adapter.Tool;
import io.github.toolconformance.adapter.Unsupported;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * langchain4j ({@code dev.langchain4j:langchain4j}) behind protocol v1, on the Java kit: each
 * registered tool is a {@code ToolSpecification} (parameters: langchain4j's {@code
 * JsonObjectSchema} of the tool's JSON Schema) with a {@code ToolExecutor}, and each call is made
 * by an AI service driven by a scripted chat model (the {@code structured} transport: the call is
 * a tool execution request whose arguments are JSON text, as a model's tool call arrives). The
 * tool's body reads the arguments text it was given and records it. Nothing here validates,
 * repairs or rewrites arguments.
 */
public final class Row implements RuntimeAdapter {
  /** A registered tool: its specification, or why langchain4j refused it. */
  private record Registered(ToolSpecification specification, String refused) {}

  private final Map<String, Registered> tools = new LinkedHashMap<>();
  private final Tools.ScriptedModel model = new Tools.ScriptedModel();
  private Tools.Assistant assistant;
  private Handler handler;

  @Override
  public void register(List<Tool> given) {
    tools.clear();
    for (Tool tool : given) {
      try {
        tools.put(tool.name(), new Registered(Tools.specification(tool.name(), tool.description(), tool.inputSchema()), null));
      } catch (Unsupported refused) {
        tools.put(tool.name(), new Registered(null, refused.getMessage()));
      }
    }
    List<ToolSpecification> built = tools.values().stream().filter(t -> t.specification() != null).map(Registered::specification).toList();
    assistant = Tools.service(model, built, this::ran);
  }

  private void ran(String tool, String argumentsText) {
    handler.call(Tools.read(argumentsText));
  }

  private ToolSpecification registered(String tool) {
    Registered found = tools.get(tool);
    if (found == null) throw new Failure("no tool named " + tool + " is registered");
    if (found.specification() == null) throw new Unsupported(found.refused());
    return found.specification();
  }

  @Override
  public JsonNode describe(String tool, String view) {
    return Tools.published(registered(tool));
  }

  @Override
  public ObjectNode invoke(String transport, String tool, JsonNode arguments, Handler handler) {
    registered(tool);
    return call(assistant, tool, arguments, handler);
  }

  private ObjectNode call(Tools.Assistant through, String tool, JsonNode arguments, Handler recording) {
    boolean[] ran = {false};
    this.handler = got -> {
      ran[0] = true;
      recording.call(got);
    };
    model.willCall(tool, Json.write(arguments));
    through.chat("Call the tool.");
    ToolExecutionResultMessage result = model.result();
    if (ran[0]) return null;
    ObjectNode error = Json.object();
    error.put("message", result == null ? "the AI service sent the model no tool result" : result.text());
    return error;
  }

  @Override
  public JsonNode normalize(JsonNode inputSchema, JsonNode arguments) {
    ToolSpecification scratch = Tools.specification("repro", null, inputSchema);
    Tools.Assistant through = Tools.service(model, List.of(scratch), this::ran);
    JsonNode[] received = {null};
    ObjectNode error = call(through, "repro", arguments, got -> received[0] = got);
    if (error != null) throw new Rejected(error);
    return received[0];
  }

  public static void main(String[] args) throws Exception {
    String version = Implementation.installedVersion("dev.langchain4j", "langchain4j");
    Adapter.main(
        new Implementation("dev.langchain4j:langchain4j", String.valueOf(version), List.of("RT-TOOL-8", "PLAT-162"), List.of("structured"),
            "java", "https://github.com/langchain4j/langchain4j"),
        Row::new, args);
  }
}
