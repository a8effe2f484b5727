"""P-3: every folder the service keeps at the top of its data dir is one the plugin's write guard
keeps file tools out of (:data:`memory_core.layout.SERVICE_FOLDERS`), so a new one cannot be
added to the service and forgotten by the guard."""

from __future__ import annotations

from memory_api.store.scope_records import RECORDS_FOLDER
from memory_api.store.search import INDEX_FOLDER
from memory_api.store.topic_memo import MEMO_FILE
from memory_api.stores import DATA_FOLDERS
from memory_core.layout import SERVICE_FOLDERS


def test_p3_every_top_folder_of_the_data_dir_is_guarded() -> None:
    made = {*DATA_FOLDERS, INDEX_FOLDER, RECORDS_FOLDER, MEMO_FILE.parts[0]}

    assert made <= set(SERVICE_FOLDERS)
