/**
 * The one definition of a search record (DocSearch v3 shape), as a zod schema and its inferred
 * type. The extractor produces it; both publishers (Algolia and the local index), the local engine,
 * the site and the tests consume it. Text fields hold HTML-escaped text: DocSearch renders snippets
 * with dangerouslySetInnerHTML.
 */
import {z} from 'zod';
import {RECORD_TYPES} from './constants.ts';

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

const recordObjectSchema = z.object({
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
});

/** The rules that tie a record's fields together; one message per broken rule. */
function ruleIssues(r: Pick<z.infer<typeof recordObjectSchema>, 'type' | 'content' | 'hierarchy'>): string[] {
  const issues: string[] = [];
  if (r.type === 'content' && r.content === null) issues.push('a content record needs content');
  if (r.type !== 'content' && r.content !== null) issues.push(`a ${r.type} record has no content`);
  if (r.type !== 'content' && r.hierarchy[r.type] === null) issues.push(`a ${r.type} record needs hierarchy.${r.type}`);
  return issues;
}

export const searchRecordSchema = recordObjectSchema.superRefine((r, ctx) => {
  for (const message of ruleIssues(r)) ctx.addIssue({code: 'custom', message});
});

export type SearchRecord = z.infer<typeof searchRecordSchema>;

export const recordListSchema = z.array(searchRecordSchema);

/** The fields all records of one section share (the extractor gives them the very same values). */
const sectionFieldsSchema = recordObjectSchema.pick({
  url: true,
  url_without_anchor: true,
  anchor: true,
  hierarchy: true,
  language: true,
  docusaurus_tag: true,
  version: true,
});
const ownFieldsSchema = recordObjectSchema.pick({objectID: true, type: true, content: true, weight: true});

function sameSection(a: SearchRecord, b: SearchRecord): boolean {
  return (
    a.hierarchy === b.hierarchy &&
    a.url === b.url &&
    a.url_without_anchor === b.url_without_anchor &&
    a.anchor === b.anchor &&
    a.language === b.language &&
    a.docusaurus_tag === b.docusaurus_tag &&
    a.version === b.version
  );
}

/**
 * Checks records against `searchRecordSchema` and returns the first invalid one's index and
 * message, as `recordListSchema` would report it. Faster than parsing each record whole (zod took
 * a third of the extract stage): a section's shared fields are checked once, while they stay the
 * same values (the same hierarchy object); each record's own fields and rules are always checked.
 * A record that fails is parsed with the whole schema, which gives the message.
 */
export function findInvalidRecord(records: readonly SearchRecord[]): {index: number; message: string} | undefined {
  let checked: SearchRecord | undefined;
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as SearchRecord;
    const shared = checked !== undefined && sameSection(record, checked);
    const valid =
      (shared || sectionFieldsSchema.safeParse(record).success) &&
      ownFieldsSchema.safeParse(record).success &&
      ruleIssues(record).length === 0;
    if (!valid) {
      const parsed = searchRecordSchema.safeParse(record);
      if (!parsed.success) return {index, message: parsed.error.issues[0]?.message ?? 'unknown'};
    }
    if (!shared) checked = record;
  }
  return undefined;
}
