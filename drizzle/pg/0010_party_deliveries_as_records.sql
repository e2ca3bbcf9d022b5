-- Birthday party deliveries stored before the refresh rule: whether the game said isRefreshed is not kept, so each is a record (saves.partial) that changes nothing a bot reads; `cli reprocess <id>` judges one again from its body.
UPDATE saves SET partial = TRUE WHERE data_type = 'mysekai_birthday_party';
