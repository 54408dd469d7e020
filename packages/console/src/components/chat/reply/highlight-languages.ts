/**
 * The languages code blocks are highlighted in: the ones answers show most, not highlight.js's
 * whole set (each costs bundle size). A fence in another language is shown unhighlighted.
 */
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

/** Grammars by name, for rehype-highlight's `languages` option (aliases such as `ts`, `py`, `html`, `sh` come with them). */
export const HIGHLIGHT_LANGUAGES = { bash, css, diff, go, java, javascript, json, markdown, python, shell, sql, typescript, xml, yaml };
