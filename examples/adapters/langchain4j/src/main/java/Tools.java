import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.internal.JsonSchemaElementJsonUtils;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutor;
import io.github.toolconformance.adapter.Json;
import io.github.toolconformance.adapter.Unsupported;
import java.util.List;
import java.util.Map;

/**
 * How the langchain4j row builds a tool and calls it, shared by the adapter ({@code Row}) and the
 * reproduction template ({@code Repro.java}).
 *
 * <p>A tool is a {@link ToolSpecification} whose parameters are the {@link JsonObjectSchema}
 * langchain4j's own {@code JsonSchemaElementJsonUtils.fromMap} makes of the tool's JSON Schema,
 * with a {@link ToolExecutor} whose body hands the arguments text it was given to the tool. A call
 * is made the way an AI service makes one: {@code AiServices} with the tool and a scripted
 * {@link ChatModel} (no network) whose first answer is a tool execution request carrying the
 * case's arguments as JSON text, and whose second answer, after the tool's result, ends the turn.
 */
public final class Tools {
  private Tools() {}

  /** The ID a decline names for a schema that is no object (about.yaml's limitations). */
  static final String OBJECT_ONLY = "documented limitation parameters-object-only";

  /** The AI service the scripted model drives. */
  public interface Assistant {
    /** One user turn. */
    String chat(String message);
  }

  /**
   * The specification of a tool with this JSON Schema, or {@link Unsupported} with langchain4j's
   * refusal (a schema that is no object, or one {@code fromMap} throws for).
   */
  @SuppressWarnings("unchecked")
  public static ToolSpecification specification(String name, String description, JsonNode schema) {
    if (!schema.isObject()) {
      throw new Unsupported("a ToolSpecification's parameters are a JsonObjectSchema, and the schema " + Json.write(schema) + " is no JSON object (" + OBJECT_ONLY + ")");
    }
    JsonSchemaElement element;
    try {
      element = JsonSchemaElementJsonUtils.fromMap((Map<String, Object>) Json.toJava(schema));
    } catch (RuntimeException refused) {
      throw new Unsupported("JsonSchemaElementJsonUtils.fromMap refused the schema: " + refused.getClass().getSimpleName() + ": " + refused.getMessage());
    }
    if (!(element instanceof JsonObjectSchema parameters)) {
      throw new Unsupported("a ToolSpecification's parameters are a JsonObjectSchema, and JsonSchemaElementJsonUtils.fromMap made a " + element.getClass().getSimpleName() + " of the schema (" + OBJECT_ONLY + ")");
    }
    ToolSpecification.Builder builder = ToolSpecification.builder().name(name).parameters(parameters);
    if (description != null) builder.description(description);
    return builder.build();
  }

  /** The JSON Schema langchain4j publishes for a specification (its parameters, as a map). */
  public static JsonNode published(ToolSpecification specification) {
    return Json.fromJava(JsonSchemaElementJsonUtils.toMap(specification.parameters()));
  }

  /** A chat model with no network: it asks for one tool call, then ends the turn. */
  public static final class ScriptedModel implements ChatModel {
    private ToolExecutionRequest next;
    private ToolExecutionResultMessage result;

    /** The tool call the next user turn answers with. */
    public void willCall(String tool, String argumentsText) {
      next = ToolExecutionRequest.builder().id("call_1").name(tool).arguments(argumentsText).build();
      result = null;
    }

    /** The tool result the AI service sent back to the model (null when none). */
    public ToolExecutionResultMessage result() {
      return result;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ChatMessage> messages = request.messages();
      ChatMessage last = messages.get(messages.size() - 1);
      if (last instanceof ToolExecutionResultMessage got) {
        result = got;
        return ChatResponse.builder().aiMessage(AiMessage.from("done")).build();
      }
      ToolExecutionRequest call = next;
      next = null;
      return ChatResponse.builder().aiMessage(call == null ? AiMessage.from("done") : AiMessage.from(call)).build();
    }
  }

  /**
   * An AI service over these tools, each executed by a {@link ToolExecutor} that gives {@code
   * body} the tool's name and the arguments text langchain4j handed it, and answers "ok".
   */
  public static Assistant service(ScriptedModel model, List<ToolSpecification> tools, ToolBody body) {
    Map<ToolSpecification, ToolExecutor> executors = new java.util.LinkedHashMap<>();
    for (ToolSpecification tool : tools) {
      executors.put(tool, (request, memoryId) -> {
        body.run(tool.name(), request.arguments());
        return "ok";
      });
    }
    return AiServices.builder(Assistant.class).chatModel(model).tools(executors).build();
  }

  /** A tool's body: what it does with the arguments text it was given. */
  @FunctionalInterface
  public interface ToolBody {
    /** Runs the tool. */
    void run(String tool, String argumentsText);
  }

  /** The arguments text a tool gets, read as JSON with exact numbers (the kit's reader). */
  public static JsonNode read(String argumentsText) {
    return Json.read(argumentsText);
  }
}
