package org.molten.structures.io;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The comment line of extended XYZ: {@code key=value} pairs separated by blanks, values quoted
 * with {@code "..."}, {@code '...'}, {@code {...}} or {@code [...]} when they hold blanks, a
 * backslash escaping the next character, and a bare {@code key} meaning {@code key=T} (the rules
 * of ASE's {@code key_val_str_to_dict}). Values stay strings here; their meaning is decided by
 * the reader.
 */
final class KeyValueLine {
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    /** Values written without quotes: no blank, quote, bracket, brace, '=', ',' or backslash. */
    private static final Pattern BARE = Pattern.compile("[^\\s\"'{}\\[\\]=,\\\\]+");

    private KeyValueLine() {}

    /** Thrown with the problem; the reader adds file and line. */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    /** Parses {@code line} into key → value in order of appearance (a repeated key keeps the last value). */
    static Map<String, String> parse(String line) throws ParseException {
        // Tokens: words (quoted parts joined in) and '=' signs.
        java.util.List<String> tokens = new java.util.ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char closing = 0;
        int openedAt = -1;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (closing != 0) {
                if (c == '\\' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else if (c == closing) {
                    closing = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else if (c == '"' || c == '\'' || c == '{' || c == '[') {
                closing = c == '{' ? '}' : c == '[' ? ']' : c;
                openedAt = i;
                inWord = true;
            } else if (Character.isWhitespace(c) || c == '=') {
                if (inWord) {
                    tokens.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                if (c == '=') {
                    tokens.add(null); // marks '='
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (closing != 0) {
            throw new ParseException("unterminated quote " + line.charAt(openedAt) + " at column " + (openedAt + 1)
                    + " of the comment line");
        }
        if (inWord) {
            tokens.add(word.toString());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int t = 0; t < tokens.size(); ) {
            String key = tokens.get(t++);
            if (key == null) {
                throw new ParseException("'=' without a key on the comment line");
            }
            if (!KEY.matcher(key).matches()) {
                throw new ParseException("key '" + key + "' on the comment line is not [A-Za-z_][A-Za-z0-9_-]*");
            }
            if (t < tokens.size() && tokens.get(t) == null) {
                t++;
                if (t >= tokens.size() || tokens.get(t) == null) {
                    throw new ParseException("key '" + key + "' has '=' but no value");
                }
                out.put(key, tokens.get(t++));
            } else {
                out.put(key, "T");
            }
        }
        return out;
    }

    /** Appends {@code key=value}, quoting and escaping the value when it needs it. */
    static void append(StringBuilder sb, String key, String value) {
        sb.append(key).append('=');
        if (BARE.matcher(value).matches()) {
            sb.append(value);
            return;
        }
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('"');
    }
}
