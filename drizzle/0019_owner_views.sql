-- Views for people who open the file (README "Look inside the database"): the same names and columns as drizzle/pg/0009_owner_views.sql.
-- Times are text (UTC, and the save's region's zone); states are words; no key, token, webhook URL or Bark key is a column here.
-- Written for the sqlite3 CLIs owners have (3.37+): no unixepoch(), no ->>. A migration that changes a column these read drops and re-creates the view.
-- EN's zone: SQLite has no time-zone database, so US Pacific time is the rule in force since 2007 (UTC-7 from the second
-- Sunday of March 10:00 UTC to the first Sunday of November 09:00 UTC, else UTC-8); a hub's PostgreSQL follows its tz database.
CREATE VIEW view_saves AS
SELECT save_id, player_id, player_name, region, kind, source,
  datetime(received_s, 'unixepoch') AS received_utc,
  CASE WHEN received_off IS NOT NULL THEN datetime(received_s + received_off * 3600, 'unixepoch') || ' UTC' || CASE WHEN received_off > 0 THEN '+' ELSE '' END || received_off END AS received_local,
  datetime(archived_s, 'unixepoch') AS archived_utc,
  CASE WHEN archived_off IS NOT NULL THEN datetime(archived_s + archived_off * 3600, 'unixepoch') || ' UTC' || CASE WHEN archived_off > 0 THEN '+' ELSE '' END || archived_off END AS archived_local,
  (CAST(strftime('%s', 'now') AS INTEGER) - received_s) / 3600 AS hours_ago,
  state, stage, failure, archive_folder, size_bytes
FROM (
  SELECT s.id AS save_id, s.player_id, p.name AS player_name, s.region, s.source, s.size AS size_bytes,
    CASE
      WHEN s.data_type = 'mysekai_birthday_party' AND s.partial THEN 'party delivery'
      WHEN s.partial THEN 'partial'
      WHEN s.drops_fingerprint IS NULL AND a.save_id IS NULL THEN 'not read yet'
      WHEN s.data_type = 'mysekai_birthday_party' THEN 'party refresh'
      ELSE 'full save'
    END AS kind,
    s.received_at / 1000 AS received_s,
    a.created_at / 1000 AS archived_s,
    CASE
      WHEN s.region IN ('cn', 'tw') THEN 8
      WHEN s.region IN ('jp', 'kr') THEN 9
      WHEN s.region = 'en' THEN CASE
        WHEN datetime(s.received_at / 1000, 'unixepoch') >= datetime(s.received_at / 1000, 'unixepoch', 'start of year', '+2 months', 'weekday 0', '+7 days', '+10 hours')
         AND datetime(s.received_at / 1000, 'unixepoch') < datetime(s.received_at / 1000, 'unixepoch', 'start of year', '+10 months', 'weekday 0', '+9 hours') THEN -7
        ELSE -8 END
    END AS received_off,
    CASE
      WHEN a.created_at IS NULL THEN NULL
      WHEN s.region IN ('cn', 'tw') THEN 8
      WHEN s.region IN ('jp', 'kr') THEN 9
      WHEN s.region = 'en' THEN CASE
        WHEN datetime(a.created_at / 1000, 'unixepoch') >= datetime(a.created_at / 1000, 'unixepoch', 'start of year', '+2 months', 'weekday 0', '+7 days', '+10 hours')
         AND datetime(a.created_at / 1000, 'unixepoch') < datetime(a.created_at / 1000, 'unixepoch', 'start of year', '+10 months', 'weekday 0', '+9 hours') THEN -7
        ELSE -8 END
    END AS archived_off,
    CASE j.state
      WHEN 'pending' THEN 'waiting'
      WHEN 'pending_retry' THEN 'retrying'
      WHEN 'waiting_for_key' THEN 'waiting for a key'
      WHEN 'running' THEN 'running'
      WHEN 'failed' THEN 'failed'
      ELSE 'done'
    END AS state,
    j.stage,
    CASE WHEN j.state IN ('failed', 'pending_retry', 'waiting_for_key') THEN j.last_error END AS failure,
    a.rel_path AS archive_folder
  FROM saves s
  LEFT JOIN archives a ON a.save_id = s.id
  LEFT JOIN jobs j ON j.save_id = s.id
  LEFT JOIN players p ON p.player_id = s.player_id
) v;
--> statement-breakpoint
CREATE VIEW view_pushes AS
SELECT d.id AS push_id, d.save_id, s.player_id, d.channel, d.target AS route,
  CASE WHEN d.state = 'pending' AND d.last_error IS NOT NULL THEN 'retrying' WHEN d.state = 'pending' THEN 'waiting' ELSE d.state END AS state,
  d.attempts, d.last_error,
  datetime(d.sent_at / 1000, 'unixepoch') AS sent_utc,
  CASE WHEN d.state = 'pending' THEN datetime(d.next_attempt_at / 1000, 'unixepoch') END AS next_try_utc,
  datetime(d.created_at / 1000, 'unixepoch') AS created_utc
FROM deliveries d
JOIN saves s ON s.id = d.save_id;
--> statement-breakpoint
CREATE VIEW view_players AS
SELECT i.player_id, p.name,
  datetime(sv.last_received / 1000, 'unixepoch') AS last_save_utc,
  datetime(pu.last_sent / 1000, 'unixepoch') AS last_push_utc,
  coalesce(sv.saves, 0) AS saves,
  coalesce(sv.failed, 0) AS failed_saves,
  coalesce(pu.sent, 0) AS pushes_sent,
  coalesce(pu.failed, 0) AS pushes_failed
FROM (SELECT player_id FROM saves UNION SELECT player_id FROM players) i
LEFT JOIN players p ON p.player_id = i.player_id
LEFT JOIN (
  SELECT s.player_id, max(s.received_at) AS last_received, count(*) AS saves, sum(CASE WHEN j.state = 'failed' THEN 1 ELSE 0 END) AS failed
  FROM saves s LEFT JOIN jobs j ON j.save_id = s.id GROUP BY s.player_id
) sv ON sv.player_id = i.player_id
LEFT JOIN (
  -- Pushes to the player's channels; a bot's data webhook is not one.
  SELECT s.player_id, max(d.sent_at) AS last_sent, sum(CASE WHEN d.state = 'sent' THEN 1 ELSE 0 END) AS sent, sum(CASE WHEN d.state = 'failed' THEN 1 ELSE 0 END) AS failed
  FROM deliveries d JOIN saves s ON s.id = d.save_id WHERE d.channel <> 'data-webhook' GROUP BY s.player_id
) pu ON pu.player_id = i.player_id;
--> statement-breakpoint
CREATE VIEW view_queue AS
SELECT job_id, save_id, report_id, player_id, stage, state, attempts, last_error, since_utc, seconds,
  CASE
    WHEN seconds < 60 THEN seconds || ' s'
    WHEN seconds < 3600 THEN (seconds / 60) || ' min'
    WHEN seconds < 86400 THEN (seconds / 3600) || ' h ' || (seconds % 3600 / 60) || ' min'
    ELSE (seconds / 86400) || ' d ' || (seconds % 86400 / 3600) || ' h'
  END AS for_how_long,
  next_run_utc
FROM (
  SELECT j.id AS job_id, j.save_id, j.report_id, s.player_id, j.stage,
    CASE j.state WHEN 'pending' THEN 'waiting' WHEN 'pending_retry' THEN 'retrying' WHEN 'waiting_for_key' THEN 'waiting for a key' ELSE j.state END AS state,
    j.attempts, j.last_error,
    -- Waiting or running: since it was queued; failed: since it failed.
    datetime(CASE WHEN j.state = 'failed' THEN j.updated_at ELSE j.created_at END / 1000, 'unixepoch') AS since_utc,
    max(0, CAST(strftime('%s', 'now') AS INTEGER) - CASE WHEN j.state = 'failed' THEN j.updated_at ELSE j.created_at END / 1000) AS seconds,
    CASE WHEN j.state IN ('pending', 'pending_retry') THEN datetime(j.run_at / 1000, 'unixepoch') END AS next_run_utc
  FROM jobs j
  LEFT JOIN saves s ON s.id = j.save_id
  WHERE j.state <> 'done'
) q;
