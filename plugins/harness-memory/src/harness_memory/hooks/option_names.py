"""The long options of the programs :mod:`~harness_memory.hooks.option_words` reads, by
kind, as their own ``--help`` lists them (GNU tar 1.34, coreutils 9.1, GNU cpio 2.13, GNU
patch 2.7, wget 1.21, curl 7.88): each a string of names without their ``--``.

``VALUED`` ones take a value (``--directory=DIR`` or ``--directory DIR``), ``OPTIONAL`` ones
take one only after ``=`` (``--tmpdir[=DIR]``), ``FLAGS`` take none. A long option's reader
needs all three: an exact name wins over a longer one it starts (``--strip`` is no
``--strip-program``), and a start of several names is ambiguous. Pure data (H-5).
"""

from __future__ import annotations

VALUED: dict[str, str] = {
    "tar": (
        "add-file after-date blocking-factor checkpoint-action directory exclude exclude-from "
        "exclude-ignore exclude-ignore-recursive exclude-tag exclude-tag-all "
        "exclude-tag-under file files-from format group group-map hole-detection index-file "
        "info-script label level listed-incremental mode mtime new-volume-script newer "
        "newer-mtime no-quote-chars owner owner-map pax-option quote-chars quoting-style "
        "record-size rmt-command rsh-command sort sparse-version starting-file "
        "strip-components suffix tape-length to-command transform use-compress-program "
        "volno-file warning xattrs-exclude xattrs-include xform "
    ),
    "install": ("group mode owner strip-program suffix target-directory "),
    "mktemp": ("suffix "),
    "cpio": (
        "block-size directory file format io-size message owner pattern-file rsh-command warning "
    ),
    "sort": (
        "batch-size buffer-size check compress-program field-separator files0-from key output "
        "parallel random-source sort temporary-directory "
    ),
    "patch": (
        "basename-prefix directory fuzz get ifdef input output prefix quoting-style read-only "
        "reject-file reject-format strip suffix version-control "
    ),
    "wget": (
        "accept accept-regex append-output backups base bind-address body-data body-file "
        "ca-certificate ca-directory certificate certificate-type ciphers compression config "
        "connect-timeout crl-file cut-dirs default-page directory-prefix dns-timeout domains "
        "exclude-directories exclude-domains execute follow-tags ftp-password ftp-user header "
        "hsts-file http-password http-user ignore-tags include-directories input-file level "
        "limit-rate load-cookies local-encoding max-redirect method output-document "
        "output-file password pinnedpubkey post-data post-file prefer-family private-key "
        "private-key-type progress proxy-password proxy-user quota read-timeout referer "
        "regex-type reject reject-regex rejected-log remote-encoding report-speed "
        "restrict-file-names retry-on-http-error save-cookies secure-protocol start-pos "
        "timeout tries use-askpass user user-agent wait waitretry warc-dedup warc-file "
        "warc-header warc-max-size warc-tempdir "
    ),
    "curl": (
        "abstract-unix-socket alt-svc aws-sigv4 cacert capath cert cert-type ciphers config "
        "connect-timeout connect-to continue-at cookie cookie-jar create-file-mode crlfile "
        "curves data data-ascii data-binary data-raw data-urlencode delegation dns-interface "
        "dns-ipv4-addr dns-ipv6-addr dns-servers doh-url dump-header egd-file engine "
        "etag-compare etag-save expect100-timeout form form-string ftp-account "
        "ftp-alternative-to-user ftp-method ftp-port ftp-ssl-ccc-mode "
        "happy-eyeballs-timeout-ms header help hostpubmd5 hostpubsha256 hsts interface json "
        "keepalive-time key key-type krb libcurl limit-rate local-port login-options "
        "mail-auth mail-from mail-rcpt max-filesize max-redirs max-time netrc-file noproxy "
        "oauth2-bearer output output-dir parallel-max pass pinnedpubkey preproxy proto "
        "proto-default proto-redir proxy proxy-cacert proxy-capath proxy-cert proxy-cert-type "
        "proxy-ciphers proxy-crlfile proxy-header proxy-key proxy-key-type proxy-pass "
        "proxy-pinnedpubkey proxy-service-name proxy-tls13-ciphers proxy-tlsauthtype "
        "proxy-tlspassword proxy-tlsuser proxy-user pubkey quote random-file range rate "
        "referer request request-target resolve retry retry-delay retry-max-time sasl-authzid "
        "service-name socks4 socks4a socks5 socks5-gssapi-service socks5-hostname speed-limit "
        "speed-time stderr telnet-option tftp-blksize time-cond tls-max tls13-ciphers "
        "tlsauthtype tlspassword tlsuser trace trace-ascii unix-socket upload-file url "
        "url-query user user-agent write-out "
    ),
    "cp": ("no-preserve preserve reflink sparse suffix target-directory "),
    "mv": ("suffix target-directory "),
    "ln": ("suffix target-directory "),
}

OPTIONAL: dict[str, str] = {
    "tar": ("atime-preserve backup checkpoint occurrence one-top-level totals "),
    "install": ("backup context "),
    "mktemp": ("tmpdir "),
    "cp": ("backup context "),
    "mv": ("backup "),
    "ln": ("backup "),
}

FLAGS: dict[str, str] = {
    "tar": (
        "absolute-names acls anchored append auto-compress block-number bzip2 catenate "
        "check-device check-links clamp-mtime compare compress concatenate confirmation "
        "create delay-directory-restore delete dereference diff exclude-backups "
        "exclude-caches exclude-caches-all exclude-caches-under exclude-vcs "
        "exclude-vcs-ignores extract force-local full-time get gunzip gzip hard-dereference "
        "help ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental "
        "interactive keep-directory-symlink keep-newer-files keep-old-files list lzip lzma "
        "lzop multi-volume no-acls no-anchored no-auto-compress no-check-device "
        "no-delay-directory-restore no-ignore-case no-ignore-command-error no-null "
        "no-overwrite-dir no-recursion no-same-owner no-same-permissions no-seek no-selinux "
        "no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs "
        "null numeric-owner old-archive one-file-system overwrite overwrite-dir portability "
        "posix preserve-order preserve-permissions read-full-records recursion "
        "recursive-unlink remove-files restrict same-order same-owner same-permissions seek "
        "selinux show-defaults show-omitted-dirs show-snapshot-field-ranges show-stored-names "
        "show-transformed-names skip-old-files sparse test-label to-stdout touch uncompress "
        "ungzip unlink-first unquote update usage utc verbatim-files-from verbose verify "
        "version wildcards wildcards-match-slash xattrs xz zstd "
    ),
    "install": (
        "compare directory help no-target-directory preserve-context preserve-timestamps "
        "strip verbose version "
    ),
    "mktemp": ("directory dry-run help quiet version "),
    "cpio": (
        "absolute-filenames append create dereference device-independent dot extract "
        "force-local help ignore-devno link list make-directories no-absolute-filenames "
        "no-preserve-owner nonmatching null numeric-uid-gid only-verify-crc pass-through "
        "preserve-modification-time quiet rename renumber-inodes reproducible "
        "reset-access-time sparse swap swap-bytes swap-halfwords to-stdout unconditional "
        "usage verbose version "
    ),
    "sort": (
        "debug dictionary-order general-numeric-sort help human-numeric-sort ignore-case "
        "ignore-leading-blanks ignore-nonprinting merge month-sort numeric-sort random-sort "
        "reverse stable unique version version-sort zero-terminated "
    ),
    "patch": (
        "backup backup-if-mismatch batch binary context dry-run ed force forward help "
        "ignore-whitespace merge no-backup-if-mismatch normal posix quiet remove-empty-files "
        "reverse set-time set-utc silent unified verbose version "
    ),
    "wget": (
        "adjust-extension ask-password auth-no-challenge background backup-converted "
        "content-disposition content-on-error continue convert-file-only convert-links debug "
        "delete-after follow-ftp force-directories force-html ftps-clear-data-connection "
        "ftps-fallback-to-ftp ftps-implicit ftps-resume-ssl help https-only ignore-case "
        "ignore-length inet4-only inet6-only keep-session-cookies mirror no-cache "
        "no-check-certificate no-clobber no-config no-cookies no-directories no-dns-cache "
        "no-glob no-host-directories no-hsts no-http-keep-alive no-if-modified-since no-iri "
        "no-netrc no-parent no-passive-ftp no-proxy no-remove-listing "
        "no-use-server-timestamps no-verbose no-warc-compression no-warc-digests "
        "no-warc-keep-log page-requisites preserve-permissions protocol-directories quiet "
        "random-wait recursive relative retr-symlinks retry-connrefused save-headers "
        "server-response show-progress span-hosts spider strict-comments timestamping "
        "trust-server-names unlink verbose version warc-cdx xattr "
    ),
    "curl": (
        "anyauth append basic cert-status compressed compressed-ssh create-dirs crlf digest "
        "disable disable-eprt disable-epsv disallow-username-in-url doh-cert-status "
        "doh-insecure fail fail-early fail-with-body false-start form-escape ftp-create-dirs "
        "ftp-pasv ftp-pret ftp-skip-pasv-ip ftp-ssl-ccc ftp-ssl-control get globoff "
        "haproxy-protocol head http0 http1 http2 http2-prior-knowledge http3 http3-only "
        "ignore-content-length include insecure ipv4 ipv6 junk-session-cookies list-only "
        "location location-trusted mail-rcpt-allowfails manual metalink negotiate netrc "
        "netrc-optional next no-alpn no-buffer no-clobber no-keepalive no-npn "
        "no-progress-meter no-sessionid ntlm ntlm-wb parallel parallel-immediate path-as-is "
        "post301 post302 post303 progress-bar proxy-anyauth proxy-basic proxy-digest "
        "proxy-insecure proxy-negotiate proxy-ntlm proxy-ssl-allow-beast "
        "proxy-ssl-auto-client-cert proxy-tlsv1 proxy1 proxytunnel raw remote-header-name "
        "remote-name remote-name-all remote-time remove-on-error retry-all-errors "
        "retry-connrefused sasl-ir show-error silent socks5-basic socks5-gssapi "
        "socks5-gssapi-nec ssl ssl-allow-beast ssl-auto-client-cert ssl-no-revoke ssl-reqd "
        "ssl-revoke-best-effort sslv2 sslv3 styled-output suppress-connect-headers "
        "tcp-fastopen tcp-nodelay tftp-no-options tlsv1 tr-encoding trace-time use-ascii "
        "verbose version xattr "
    ),
    "cp": (
        "archive attributes-only copy-contents dereference force help interactive link "
        "no-clobber no-dereference no-target-directory one-file-system parents recursive "
        "remove-destination strip-trailing-slashes symbolic-link update verbose version "
    ),
    "mv": (
        "context force help interactive no-clobber no-target-directory strip-trailing-slashes "
        "update verbose version "
    ),
    "ln": (
        "directory force help interactive logical no-dereference no-target-directory physical "
        "relative symbolic verbose version "
    ),
}
