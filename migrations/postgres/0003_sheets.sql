-- Spreadsheets a user can export to: the ones the app created for them and the ones
-- they validated by id or URL. Only the sheet's id and title are kept, never its cells
-- (leads go straight from the request to Google).

CREATE TABLE user_sheets (
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    spreadsheet_id TEXT NOT NULL,
    name           TEXT NOT NULL,
    origin         TEXT NOT NULL,       -- 'created' or 'validated'
    added_at       BIGINT NOT NULL,
    PRIMARY KEY (user_id, spreadsheet_id)
);
