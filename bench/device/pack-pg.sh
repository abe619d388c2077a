#!/usr/bin/env bash
# .devbench/pg.tar.xz: PostgreSQL 15 (initdb, postgres, plpgsql, the share files initdb reads) and redis-server from this
# Debian 12 machine, in Debian's relative layout (usr/lib/postgresql/15/bin → usr/share/postgresql/15), plus libs/: every
# non-glibc shared library they, node and better-sqlite3 load. ICU's data library is cut down to what initdb's collation
# import needs (root collation; the 800 locales fall back to it): 31 MB → 1.6 MB. Needs icupkg (icu-devtools) and gcc.
set -euo pipefail
DB=$(cd "$(dirname "$0")/../.." && pwd)/.devbench
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
S="$T/pg"; PGB=/usr/lib/postgresql/15
mkdir -p "$S$PGB/bin" "$S$PGB/lib" "$S/usr/share/postgresql/15/extension" "$S/libs" "$S/bin"
cp $PGB/bin/{postgres,initdb} "$S$PGB/bin/"
cp $PGB/lib/{plpgsql.so,dict_snowball.so} "$S$PGB/lib/"
( cd /usr/share/postgresql/15 && cp -r catalog_version errcodes.txt information_schema.sql pg_hba.conf.sample pg_ident.conf.sample \
  postgresql.conf.sample postgres.bki snowball_create.sql sql_features.txt system_constraints.sql system_functions.sql system_views.sql \
  timezonesets tsearch_data "$S/usr/share/postgresql/15/" && cp extension/plpgsql* "$S/usr/share/postgresql/15/extension/" )
cp "$(command -v redis-server)" "$S/bin/"
for l in $(for b in $PGB/bin/postgres $PGB/bin/initdb "$(command -v redis-server)" "$(command -v node)" $PGB/lib/plpgsql.so $PGB/lib/dict_snowball.so \
  "$DB/../node_modules/better-sqlite3/build/Release/better_sqlite3.node"; do ldd "$b"; done | awk '/=>/ {print $3}' | sort -u); do
  case $(basename "$l") in libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libresolv.so*|libutil.so*) continue ;; esac
  cp -L "$l" "$S/libs/"
done
# ICU data: the package inside libicudata.so.72 (symbol icudt72_dat = .rodata), reduced with icupkg, linked back into a library.
I="$T/icu"; mkdir -p "$I/out"
L=$(ls /lib/x86_64-linux-gnu/libicudata.so.72)
read -r OFF SIZE < <(readelf -S -W "$L" | awk '$2 == ".rodata" {print strtonum("0x" $5), strtonum("0x" $6)}')
dd if="$L" of="$I/icudt72l.dat" iflag=skip_bytes,count_bytes skip="$OFF" count="$SIZE" bs=1M status=none
icupkg -l "$I/icudt72l.dat" > "$I/list.txt"
printf '%s\n' root.res en.res res_index.res pool.res likelySubtags.res langInfo.res keyTypeData.res metadata.res supplementalData.res \
  icuver.res icustd.res cnvalias.icu nfkc.nrm coll/ucadata.icu coll/root.res coll/res_index.res coll/en.res coll/en_US.res > "$I/keep.txt"
grep -vxF -f "$I/keep.txt" "$I/list.txt" > "$I/remove.txt"
icupkg --ignore-deps -r "$I/remove.txt" "$I/icudt72l.dat" "$I/out/icudt72l.dat"
printf '\t.section .rodata\n\t.balign 16\n\t.globl icudt72_dat\n\t.type icudt72_dat, @object\nicudt72_dat:\n\t.incbin "%s"\n\t.size icudt72_dat, .-icudt72_dat\n\t.section .note.GNU-stack,"",@progbits\n' "$I/out/icudt72l.dat" > "$I/icudt.S"
gcc -shared -nostdlib -Wl,-soname,libicudata.so.72 -o "$S/libs/libicudata.so.72" "$I/icudt.S"
du -sh "$S"
tar -C "$S" -cf - . | xz --x86 --lzma2=preset=9e,dict=64MiB -T1 > "$DB/pg.tar.xz"
ls -l "$DB/pg.tar.xz"
