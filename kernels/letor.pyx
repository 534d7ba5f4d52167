# cython: language_level=3
"""Tokenizer for the LETOR / svmlight line format (kernel; wrapper: ``repro.data.letor``).

Grammar of one line (LETOR 3.0 and 4.0, MSLR, Yahoo, svmlight, svmlight multi-label)::

    <label> [qid:<integer>] (<index>:<value>)* [# comment]

Whitespace is space, tab or ``\\r`` (so CRLF files parse as LF files).  Blank lines and lines
whose first non-blank character is ``#`` are skipped; line numbers still count them.  In the
comment the token after ``docid =`` is recorded as the document id (LETOR's ``#docid = D``).

Two passes over the bytes, both without the GIL:

* :func:`scan` counts rows, non-zeros, the largest feature index and the largest row length,
  so that the wrapper can allocate outputs of the right size;
* :func:`fill` parses every number into the caller's arrays (dense rows or CSR).

A large file is parsed the same way one chunk at a time (chunks cut after a newline): the
wrapper scans every chunk, allocates once, then fills each chunk at its row offset
(``row0``/``line0``/``nnz0``), so the whole text is never in memory.

Numbers use an exact fast path (at most 15 significant digits and a decimal exponent within
±22: one correctly rounded multiplication or division of two exactly representable doubles,
Clinger 1990) and fall back to the C library's correctly rounded ``strtod`` otherwise, so a
value equals Python's ``float(text)`` bit for bit.  ``nan``, ``inf`` and other spellings that are
not plain decimals are rejected.

On an error both functions return a non-zero status and write the 1-based line number and the
byte offset of the offending token to ``err[0]`` and ``err[1]``; the wrapper turns this into an
exception that names the file and the line.
"""
from libc.stdint cimport int64_t, uint64_t, int32_t
from libc.math cimport isfinite
from libc.stdlib cimport strtod

cdef enum:
    OK = 0
    ERR_LABEL = 1
    ERR_QID = 2
    ERR_MISSING_QID = 3
    ERR_INDEX = 4
    ERR_VALUE = 5
    ERR_DUPLICATE = 6
    ERR_TOKEN = 7
    ERR_INDEX_RANGE = 8
    ERR_TOO_LONG = 9

# Exactly representable powers of ten (10**0 .. 10**22).
cdef double[23] POW10
cdef int _i
for _i in range(23):
    POW10[_i] = 10.0 ** _i


cdef inline bint is_space(unsigned char c) noexcept nogil:
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


cdef inline bint is_digit(unsigned char c) noexcept nogil:
    return 48 <= c <= 57


cdef inline Py_ssize_t line_end(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    while p < n and buf[p] != 10:
        p += 1
    return p


cdef inline Py_ssize_t skip_space(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e and is_space(buf[p]):
        p += 1
    return p


cdef inline Py_ssize_t token_end(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e and not is_space(buf[p]) and buf[p] != 35:  # '#'
        p += 1
    return p


cdef int parse_double(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e,
                      double* out) noexcept nogil:
    """Parse buf[p:e] as a plain decimal number; return 0 on success, -1 if malformed."""
    cdef Py_ssize_t q = p
    cdef bint neg = False
    cdef uint64_t mant = 0
    cdef int sig = 0           # significant digits kept in mant
    cdef int dropped = 0       # significant digits beyond 19 (not kept)
    cdef int frac_digits = 0
    cdef int n_digits = 0
    cdef int exp10 = 0
    cdef int exp_sign = 1
    cdef int exp_val = 0
    cdef bint exp_digits = False
    cdef char tmp[512]
    cdef Py_ssize_t k
    cdef char* endp
    if q < e and (buf[q] == 43 or buf[q] == 45):   # '+' '-'
        neg = buf[q] == 45
        q += 1
    while q < e and is_digit(buf[q]):
        n_digits += 1
        if mant == 0 and buf[q] == 48:
            pass
        elif sig < 19:
            mant = mant * 10 + (buf[q] - 48)
            sig += 1
        else:
            dropped += 1
        q += 1
    if q < e and buf[q] == 46:   # '.'
        q += 1
        while q < e and is_digit(buf[q]):
            n_digits += 1
            if mant == 0 and buf[q] == 48:
                frac_digits += 1
            elif sig < 19:
                mant = mant * 10 + (buf[q] - 48)
                sig += 1
                frac_digits += 1
            else:
                dropped += 1
            q += 1
    if n_digits == 0:
        return -1
    if q < e and (buf[q] == 101 or buf[q] == 69):  # 'e' 'E'
        q += 1
        if q < e and (buf[q] == 43 or buf[q] == 45):
            if buf[q] == 45:
                exp_sign = -1
            q += 1
        while q < e and is_digit(buf[q]):
            exp_digits = True
            if exp_val < 100000:
                exp_val = exp_val * 10 + (buf[q] - 48)
            q += 1
        if not exp_digits:
            return -1
    if q != e:
        return -1
    if mant == 0:
        out[0] = -0.0 if neg else 0.0
        return 0
    exp10 = exp_sign * exp_val - frac_digits
    if dropped == 0 and sig <= 15 and -22 <= exp10 <= 22:
        if exp10 >= 0:
            out[0] = <double>mant * POW10[exp10]
        else:
            out[0] = <double>mant / POW10[-exp10]
        if neg:
            out[0] = -out[0]
        return 0
    # Slow path: the C library's correctly rounded conversion of the validated token.
    if e - p >= 511:
        return -1
    for k in range(e - p):
        tmp[k] = <char>buf[p + k]
    tmp[e - p] = 0
    out[0] = strtod(tmp, &endp)
    if not isfinite(out[0]):      # overflow (e.g. 1e400): not a finite number
        return -1
    return 0


cdef inline int parse_index(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e,
                            int64_t* out) noexcept nogil:
    """Parse buf[p:e] as a positive decimal integer (no sign); 0 on success."""
    cdef int64_t v = 0
    if p >= e:
        return -1
    while p < e:
        if not is_digit(buf[p]):
            return -1
        if v > 100000000000000000LL:
            return -1
        v = v * 10 + (buf[p] - 48)
        p += 1
    out[0] = v
    return 0


cdef inline bint is_qid(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    return (e - p >= 4 and buf[p] == 113 and buf[p + 1] == 105 and buf[p + 2] == 100
            and buf[p + 3] == 58)   # "qid:"


cdef inline Py_ssize_t find_colon(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e:
        if buf[p] == 58:
            return p
        p += 1
    return -1


cdef inline void find_docid(const unsigned char[::1] buf, Py_ssize_t p, Py_ssize_t e,
                            int64_t* start, int64_t* stop) noexcept nogil:
    """In the comment buf[p:e], locate the token after ``docid`` ``=``."""
    cdef Py_ssize_t q
    start[0] = -1
    stop[0] = -1
    while p + 5 <= e:
        if (buf[p] == 100 and buf[p + 1] == 111 and buf[p + 2] == 99 and buf[p + 3] == 105
                and buf[p + 4] == 100):   # "docid"
            q = skip_space(buf, p + 5, e)
            if q < e and buf[q] == 61:    # '='
                q = skip_space(buf, q + 1, e)
                start[0] = q
                while q < e and not is_space(buf[q]):
                    q += 1
                stop[0] = q
                return
        p += 1


def scan(const unsigned char[::1] buf, bint require_qid, int64_t[::1] out):
    """Count what :func:`fill` will need.

    ``out`` (length 6) receives: rows, non-zeros, largest feature index, largest number of
    features in one row, and on error the line number and byte offset.  Returns a status code.
    """
    cdef Py_ssize_t n = buf.shape[0]
    cdef Py_ssize_t p = 0, e, t, c
    cdef int64_t line = 0, rows = 0, nnz = 0, max_index = 0, max_row = 0, row_nnz, idx
    cdef int status = OK
    with nogil:
        while p < n:
            line += 1
            e = line_end(buf, p, n)
            p = skip_space(buf, p, e)
            if p >= e or buf[p] == 35:          # blank or comment-only line
                p = e + 1
                continue
            rows += 1
            p = token_end(buf, p, e)            # label token (checked by fill)
            row_nnz = 0
            while True:
                p = skip_space(buf, p, e)
                if p >= e or buf[p] == 35:
                    break
                t = token_end(buf, p, e)
                if is_qid(buf, p, t):
                    p = t
                    continue
                c = find_colon(buf, p, t)
                if c < 0:
                    status = ERR_TOKEN
                    break
                if parse_index(buf, p, c, &idx) != 0 or idx < 1:
                    status = ERR_INDEX
                    break
                if idx > max_index:
                    max_index = idx
                row_nnz += 1
                p = t
            if status != OK:
                break
            nnz += row_nnz
            if row_nnz > max_row:
                max_row = row_nnz
            p = e + 1
    out[0] = rows
    out[1] = nnz
    out[2] = max_index
    out[3] = max_row
    out[4] = line
    out[5] = p
    return status


def fill(const unsigned char[::1] buf, bint numeric_label, bint require_qid, bint dense,
         double[:, ::1] X, int64_t[::1] indptr, int32_t[::1] indices, double[::1] data,
         double[::1] labels, int64_t[:, ::1] label_span, int64_t[::1] qid,
         int64_t[:, ::1] docid_span, int64_t[::1] line_no, int64_t[::1] seen,
         int64_t[::1] err, int64_t row0=0, int64_t line0=0, int64_t nnz0=0):
    """Parse every row into caller-allocated arrays.

    Dense mode writes ``X[row, index - 1] = value`` (X zero-filled by the caller, with at
    least as many columns as the largest index); CSR mode writes ``indptr/indices/data`` with
    0-based column indices in file order.  ``labels`` gets the numeric label when
    ``numeric_label``; ``label_span`` always gets the byte span of the label token.  ``qid``
    gets the query id (``-1`` when the row has none and ``require_qid`` is false).
    ``seen`` has one slot per column, initialised to -1, for duplicate-index detection.
    ``err`` (length 2) receives the line number and byte offset of an error.

    Streaming (``buf`` one chunk of a file, cut at line boundaries): the chunk's first row is
    row ``row0`` of the outputs (every per-row array, ``X`` and ``indptr``), its first line is
    line ``line0 + 1`` of the file, and its first non-zero goes to ``indices/data[nnz0]``.
    Byte spans (``label_span``, ``docid_span``, ``err[1]``) stay offsets into ``buf``.
    ``err[0]`` is the file's line number; on success it is that of the chunk's last line.
    """
    cdef Py_ssize_t n = buf.shape[0]
    cdef Py_ssize_t ncol = seen.shape[0]
    cdef Py_ssize_t p = 0, e, t, c
    cdef int64_t line = line0, row = row0 - 1, k = nnz0, idx, q
    cdef double v
    cdef bint has_qid
    cdef int status = OK
    with nogil:
        if not dense and row0 == 0:
            indptr[0] = 0
        while p < n:
            line += 1
            e = line_end(buf, p, n)
            p = skip_space(buf, p, e)
            if p >= e or buf[p] == 35:
                p = e + 1
                continue
            row += 1
            line_no[row] = line
            # label
            t = token_end(buf, p, e)
            label_span[row, 0] = p
            label_span[row, 1] = t
            if numeric_label:
                if parse_double(buf, p, t, &v) != 0:
                    status = ERR_LABEL
                    break
                labels[row] = v
            p = t
            has_qid = False
            qid[row] = -1
            docid_span[row, 0] = -1
            docid_span[row, 1] = -1
            while True:
                p = skip_space(buf, p, e)
                if p >= e:
                    break
                if buf[p] == 35:
                    find_docid(buf, p + 1, e, &docid_span[row, 0], &docid_span[row, 1])
                    break
                t = token_end(buf, p, e)
                if is_qid(buf, p, t):
                    if has_qid or parse_index(buf, p + 4, t, &q) != 0:
                        status = ERR_QID
                        break
                    has_qid = True
                    qid[row] = q
                    p = t
                    continue
                c = find_colon(buf, p, t)
                if c < 0:
                    status = ERR_TOKEN
                    break
                if parse_index(buf, p, c, &idx) != 0 or idx < 1:
                    status = ERR_INDEX
                    break
                if idx > ncol:
                    status = ERR_INDEX_RANGE
                    break
                if seen[idx - 1] == row:
                    status = ERR_DUPLICATE
                    break
                seen[idx - 1] = row
                if parse_double(buf, c + 1, t, &v) != 0:
                    p = c + 1
                    status = ERR_VALUE
                    break
                if dense:
                    X[row, idx - 1] = v
                else:
                    indices[k] = <int32_t>(idx - 1)
                    data[k] = v
                    k += 1
                p = t
            if status != OK:
                break
            if require_qid and not has_qid:
                status = ERR_MISSING_QID
                break
            if not dense:
                indptr[row + 1] = k
            p = e + 1
    err[0] = line
    err[1] = p
    return status
