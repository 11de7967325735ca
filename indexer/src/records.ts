/**
 * The one definition of a search record (DocSearch v3 shape). The extractor produces it, both
 * publishers (Algolia and the local index) and the browser's local search client consume it.
 * Text fields hold HTML-escaped text: DocSearch renders snippets with dangerouslySetInnerHTML.
 */
import {z} from 'zod';

export const LEVELS = ['lvl0', 'lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6'] as const;
export type Level = (typeof LEVELS)[number];

export const RECORD_TYPES = [...LEVELS, 'content'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** No record may be larger than this once serialised (long text is split by the extractor). */
export const MAX_RECORD_BYTES = 10_000;

const levelText = z.string().min(1).nullable();

export const hierarchySchema = z.object({
  lvl0: z.string().min(1),
  lvl1: levelText,
  lvl2: levelText,
  lvl3: levelText,
  lvl4: levelText,
  lvl5: levelText,
  lvl6: levelText,
});
export type Hierarchy = z.infer<typeof hierarchySchema>;

export const weightSchema = z.object({
  /** Page importance; higher ranks first. */
  pageRank: z.number().int(),
  /** 100 - 10 * N for an lvlN record, 0 for content. */
  level: z.number().int().min(0).max(100),
  /**
   * Order of the record within its section (the heading record is 0), so inserting a paragraph
   * changes only the records of that section. A tie-breaker in ranking.
   */
  position: z.number().int().min(0),
});

export const searchRecordSchema = z
  .object({
    objectID: z.string().min(1),
    /** Absolute URL, with `#anchor` when the record belongs to a heading. */
    url: z.string().url(),
    url_without_anchor: z.string().url(),
    anchor: z.string().nullable(),
    type: z.enum(RECORD_TYPES),
    hierarchy: hierarchySchema,
    /** Text of a paragraph, list item or table cell; null unless type is `content`. */
    content: z.string().nullable(),
    weight: weightSchema,
    /** Copied from the page's `<meta name="docsearch:*">` tags (contextual search facets). */
    language: z.string().min(1),
    docusaurus_tag: z.string().min(1),
    version: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.type === 'content' && r.content === null) {
      ctx.addIssue({code: 'custom', message: 'a content record needs content'});
    }
    if (r.type !== 'content' && r.content !== null) {
      ctx.addIssue({code: 'custom', message: `a ${r.type} record has no content`});
    }
    if (r.type !== 'content' && r.hierarchy[r.type] === null) {
      ctx.addIssue({code: 'custom', message: `a ${r.type} record needs hierarchy.${r.type}`});
    }
  });

export type SearchRecord = z.infer<typeof searchRecordSchema>;

export const recordListSchema = z.array(searchRecordSchema);
