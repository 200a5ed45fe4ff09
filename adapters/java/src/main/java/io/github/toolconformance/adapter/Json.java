package io.github.toolconformance.adapter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON with exact numbers, for protocol v1 adapters.
 *
 * <p>{@link #read} gives a Jackson tree whose integers are {@link BigInteger} and whose other
 * numbers are {@link BigDecimal} with the exact digits of their literal ({@code 1.0} keeps its
 * scale), whose objects keep their key order, whose strings keep lone surrogates, and it refuses
 * NaN, Infinity and trailing text. {@link #write} writes such a tree back compact, in printable
 * ASCII (every other character as a {@code \\uXXXX} escape of its UTF-16 units, so a lone surrogate
 * is its own escape), numbers with their digits, and refuses a number JSON cannot carry (a NaN or
 * infinite double). {@link #toJava} and {@link #fromJava} convert to and from plain Java values
 * (maps, lists, strings, numbers, booleans, null) for a framework that wants them.
 */
public final class Json {
  private Json() {}

  /** The node factory of every tree the kit makes: decimals keep their scale ({@code 1.0}). */
  public static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  /** The mapper {@link #read} uses: exact numbers, strict JSON. */
  public static final ObjectMapper MAPPER = mapper();

  private static ObjectMapper mapper() {
    JsonMapper mapper =
        JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .nodeFactory(NODES)
            .build();
    mapper
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder()
                .maxNumberLength(1_000_000)
                .maxStringLength(64 * 1024 * 1024)
                .build());
    return mapper;
  }

  /** A JSON value as an exact tree; {@link IllegalArgumentException} when it is not JSON. */
  public static JsonNode read(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("no JSON value");
      }
      return node;
    } catch (JsonProcessingException why) {
      throw new IllegalArgumentException(why.getOriginalMessage(), why);
    }
  }

  /** A new empty object of the kit's factory (key order kept). */
  public static ObjectNode object() {
    return NODES.objectNode();
  }

  /** A new empty array of the kit's factory. */
  public static ArrayNode array() {
    return NODES.arrayNode();
  }

  /**
   * The compact JSON text of a tree, in printable ASCII; {@link IllegalArgumentException} for a
   * value JSON cannot carry (a NaN or infinite number).
   */
  public static String write(JsonNode value) {
    StringBuilder out = new StringBuilder();
    write(value, out, false);
    return out.toString();
  }

  static void write(JsonNode value, StringBuilder out, boolean inert) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      out.append("null");
    } else if (value.isBoolean()) {
      out.append(value.booleanValue() ? "true" : "false");
    } else if (value.isNumber()) {
      out.append(number(value));
    } else if (value.isTextual()) {
      string(value.textValue(), out, inert);
    } else if (value.isArray()) {
      out.append('[');
      boolean first = true;
      for (JsonNode item : value) {
        if (!first) out.append(',');
        first = false;
        write(item, out, inert);
      }
      out.append(']');
    } else if (value.isObject()) {
      out.append('{');
      boolean first = true;
      for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        if (!first) out.append(',');
        first = false;
        string(entry.getKey(), out, inert);
        out.append(':');
        write(entry.getValue(), out, inert);
      }
      out.append('}');
    } else {
      throw new IllegalArgumentException("not a JSON value: a " + value.getNodeType() + " node");
    }
  }

  private static String number(JsonNode value) {
    if (value.isBigDecimal()) {
      return value.decimalValue().toString();
    }
    if (value.isDouble() || value.isFloat()) {
      double d = value.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(d + " is not JSON");
      }
      return value.isFloat() ? Float.toString(value.floatValue()) : Double.toString(d);
    }
    return value.bigIntegerValue().toString();
  }

  private static void string(String text, StringBuilder out, boolean inert) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          boolean printable = c >= ' ' && c <= '~' && !(inert && (c == '\'' || c == '`' || c == '$'));
          if (printable) {
            out.append(c);
          } else {
            out.append(String.format("\\u%04x", (int) c));
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * A tree as plain Java values: objects as {@link LinkedHashMap} (key order kept), arrays as
   * {@link ArrayList}, integers as {@link BigInteger}, other numbers as {@link BigDecimal} (or the
   * double a double node holds), strings, booleans and null.
   */
  public static Object toJava(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) return null;
    if (value.isBoolean()) return value.booleanValue();
    if (value.isTextual()) return value.textValue();
    if (value.isBigDecimal()) return value.decimalValue();
    if (value.isDouble() || value.isFloat()) return value.doubleValue();
    if (value.isNumber()) return value.bigIntegerValue();
    if (value.isArray()) {
      List<Object> list = new ArrayList<>();
      for (JsonNode item : value) list.add(toJava(item));
      return list;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      map.put(entry.getKey(), toJava(entry.getValue()));
    }
    return map;
  }

  /**
   * Plain Java values as a tree: a {@link Map} with string keys (its iteration order kept), a
   * {@link Iterable} or array of objects, a {@link CharSequence}, a {@link Number} (integers and
   * {@link BigInteger} exact, {@link BigDecimal} with its digits, a double as Java writes it), a
   * {@link Boolean}, null, or a {@link JsonNode} as it is. {@link IllegalArgumentException} for
   * anything else, a key that is not a string, or a NaN or infinite number.
   */
  public static JsonNode fromJava(Object value) {
    if (value == null) return NODES.nullNode();
    if (value instanceof JsonNode node) return node;
    if (value instanceof Boolean b) return NODES.booleanNode(b);
    if (value instanceof CharSequence s) return NODES.textNode(s.toString());
    if (value instanceof Character c) return NODES.textNode(c.toString());
    if (value instanceof BigDecimal d) return NODES.numberNode(d);
    if (value instanceof BigInteger i) return NODES.numberNode(i);
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(value + " is not JSON");
      }
      return value instanceof Float f ? NODES.numberNode(f) : NODES.numberNode(d);
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
      return NODES.numberNode(BigInteger.valueOf(((Number) value).longValue()));
    }
    if (value instanceof Number n) return NODES.numberNode(new BigDecimal(n.toString()));
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String key)) {
          throw new IllegalArgumentException("a JSON object key must be a string, not " + entry.getKey());
        }
        object.set(key, fromJava(entry.getValue()));
      }
      return object;
    }
    if (value instanceof Iterable<?> items) {
      ArrayNode array = NODES.arrayNode();
      for (Object item : items) array.add(fromJava(item));
      return array;
    }
    if (value instanceof Object[] items) {
      ArrayNode array = NODES.arrayNode();
      for (Object item : items) array.add(fromJava(item));
      return array;
    }
    throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
  }
}
