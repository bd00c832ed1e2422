"""The database schema: the Alembic migrations build exactly the tables the server uses, on SQLite and
PostgreSQL, and upgrade a database of an older version without losing its games."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, text

import canasta
from canasta.server.storage import MIGRATIONS, MoveRow, SeatRow, Store, TableRow, database_url, metadata


def test_migrations_build_the_schema_the_code_uses(database: str) -> None:
    store = Store(database)
    with store.engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), metadata) == []
    store.close()


def test_upgrade_keeps_the_games_of_an_older_schema(database: str) -> None:
    engine = create_engine(database_url(database))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text("INSERT INTO game_tables (id, created, updated, rules, settings, status, version, "
                                "state, deals, pad, result) VALUES ('old', 0, 0, '{}', '{}', 'over', 1, '{}', "
                                "'[]', '[]', NULL)"))
        connection.execute(text("INSERT INTO moves (table_id, version, seat, move, client_id, actor, history, "
                                "created) VALUES ('old', 1, 0, 'draw', NULL, 'human', '[]', 0)"))
    engine.dispose()
    store = Store(database)  # upgrades to the newest schema
    assert store.moves("old") == [MoveRow(version=1, seat=0, move="draw", client_id=None, actor="human", history=[])]
    state = canasta.new_game(canasta.rules(), seed=1)
    store.create_table(TableRow(id="new", rules={}, settings={}, status="playing", version=0, state=state.to_json(),
                                deals=[], pad=[], result=None, seats=[SeatRow(0, "human", None, None)]))
    store.commit_move("new", MoveRow(1, 0, "discard 5", "a", "human", ["0 discard 5"], card="5H"), state.to_json())
    assert store.moves("new")[0].card == "5H"
    row = store.load_table("new")
    assert row is not None and row.version == 1 and row.seats[0].kind == "human"
    store.close()
