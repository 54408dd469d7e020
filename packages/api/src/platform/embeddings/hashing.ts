import { LEXICAL_ANCHORS } from "./calibration";
import type { Embedder } from "./types";
import { normalize } from "./types";

/** Options of the offline embedder. */
export interface HashingEmbedderOptions {
  /** Vector size (default 384). */
  dimensions?: number;
}

// 32-bit FNV-1a over UTF-16 code units: fast, deterministic, good enough spread for hashing.
function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// Whole words carry the match; 3-grams only help inflected forms meet, so they weigh less.
const TRIGRAM_WEIGHT = 0.5;
const HAN = /\p{Script=Han}/u;
const RUNS = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}])+)/gu;

/** Feature counts of a text: CJK unigrams and bigrams; Latin words and their 3-grams. */
function features(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  for (const match of text.toLowerCase().matchAll(RUNS)) {
    if (match[1] !== undefined) {
      const characters = [...match[1]];
      for (let index = 0; index < characters.length; index += 1) {
        add(`u:${characters[index]}`);
        if (index + 1 < characters.length) add(`b:${characters[index]}${characters[index + 1]}`);
      }
    } else if (match[2] !== undefined && !HAN.test(match[2])) {
      const word = match[2];
      add(`w:${word}`);
      // Character 3-grams with boundary marks let inflections ("vaccine", "vaccination") meet.
      const padded = `<${word}>`;
      if (padded.length > 4) for (let index = 0; index + 3 <= padded.length; index += 1) add(`g:${padded.slice(index, index + 3)}`);
    }
  }
  return counts;
}

/**
 * The offline default embedder: signed feature hashing of lexical features (CJK characters
 * and character pairs; Latin words and their character 3-grams), sublinear term frequency
 * (1 + ln tf), L2-normalised. Deterministic and network-free, it measures word overlap, not
 * meaning, and says so in its label: it is the lexical fallback until a real embedding
 * provider is configured.
 */
export function createHashingEmbedder(options: HashingEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 384;
  return {
    id: `parley-lexical-hash-v1-${dimensions}`,
    dimensions,
    label: "Offline lexical fallback (feature hashing, no semantic model)",
    lexical: true,
    similarityAnchors: LEXICAL_ANCHORS,
    async embed(texts) {
      return texts.map((text) => {
        const vector = new Float32Array(dimensions);
        for (const [feature, count] of features(text)) {
          const hash = fnv1a(feature, 0);
          // A second, independent bit decides the sign so that collisions cancel out on average.
          const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1;
          vector[hash % dimensions]! += sign * (feature.startsWith("g:") ? TRIGRAM_WEIGHT : 1) * (1 + Math.log(count));
        }
        return normalize(vector);
      });
    },
  };
}
