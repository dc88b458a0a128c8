#!/usr/bin/env bash
# A real IMAP server for the mail intake's tests: Debian's Dovecot with one test mailbox
# (user `intake`, password `intake-test-only`), plain login on loopback port 2643 only.
# Installs dovecot-imapd when missing, writes its own configuration under /tmp (the system's is
# left alone) and starts it; running it again restarts it. Test-only values: never use them on a
# server that receives real mail.
set -euo pipefail
PORT="${MAIL_TEST_IMAP_PORT:-2643}"
BASE="${MAIL_TEST_IMAP_DIR:-/tmp/dropslot-dovecot}"
USER_NAME=intake
PASSWORD=intake-test-only

if ! command -v dovecot >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd >/dev/null
fi

# Dovecot's login and mail processes never run as root: as root, they use the package's own
# unprivileged users (the mailbox belongs to `dovecot`); otherwise, the one running this.
if [ "$(id -u)" = 0 ]; then
  LOGIN_USER=dovenull
  MAIL_USER=dovecot
else
  LOGIN_USER="$(id -un)"
  MAIL_USER="$(id -un)"
fi
MAIL_UID="$(id -u "$MAIL_USER")"
MAIL_GID="$(id -g "$MAIL_USER")"
mkdir -p "$BASE/mail" "$BASE/run"
chown -R "$MAIL_UID:$MAIL_GID" "$BASE/mail"
if [ -f "$BASE/run/master.pid" ]; then
  # Running again restarts it: the old master is stopped and waited for (it refuses to start
  # while the old one still holds its pid file).
  old_pid="$(cat "$BASE/run/master.pid")"
  kill "$old_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$old_pid" 2>/dev/null || break; sleep 0.2; done
  rm -f "$BASE/run/master.pid"
fi
printf '%s:{PLAIN}%s:%s:%s::%s/mail/%s::\n' \
  "$USER_NAME" "$PASSWORD" "$MAIL_UID" "$MAIL_GID" "$BASE" "$USER_NAME" >"$BASE/passwd"

cat >"$BASE/dovecot.conf" <<CONF
base_dir = $BASE/run
state_dir = $BASE/run
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = $BASE/dovecot.log
default_login_user = $LOGIN_USER
default_internal_user = $MAIL_USER
mail_location = maildir:$BASE/mail/%u
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $BASE/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u $BASE/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $PORT
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
protocol imap {
  mail_max_userip_connections = 50
}
CONF

dovecot -c "$BASE/dovecot.conf"
for _ in $(seq 1 30); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    echo "Dovecot IMAP on 127.0.0.1:$PORT (user $USER_NAME)"
    exit 0
  fi
  sleep 1
done
echo "Dovecot did not start; see $BASE/dovecot.log" >&2
exit 1
