/**
 * Migration 12: receipt ids that tell nothing (README "Load receipts", "Rights"). Receipts
 * were shown by their row id, one sequence for every user of an index: on the team server
 * the gaps between one user's receipt ids told how many recalls the other users made. Each
 * receipt now has a `public_id` of 32 random hex digits, the only id a caller sees (and the
 * cursor's); the row id stays the listing order. Receipts kept from before get random ids
 * too, so an old cursor is refused (`invalid_cursor`) and a client starts from the newest.
 */
export const MIGRATION_012 = `
ALTER TABLE receipts ADD COLUMN public_id TEXT;
UPDATE receipts SET public_id = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX receipts_by_public_id ON receipts (public_id);
`;
