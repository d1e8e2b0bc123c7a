// A new row's id past every id the table ever gave (migration 0022: `retired_ids` keeps the largest deleted one).
// An SQL expression to put in an INSERT's VALUES; `table` is one of ours, never user input.
export function nextId(table: 'messages' | 'threads' | 'drafts' | 'folders' | 'labels'): string {
  return `(SELECT max(r.max_id, ifnull((SELECT max(id) FROM ${table}), 0)) + 1 FROM retired_ids r WHERE r.tbl = '${table}')`;
}
