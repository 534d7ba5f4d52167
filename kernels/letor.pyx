# cython: language_level=3
"""Tokenizer for the LETOR / svmlight line format (kernel; wrapper: ``repro.data.letor``).

Grammar of one line (LETOR 3.0 and 4.0, MSLR, Yahoo, svmlight, svmlight multi-label)::

    <label> [qid:<integer>] (<index>:<value>)* [# comment]

Whitespace is space, tab or ``\\r`` (so CRLF files parse as LF files).  Blank lines and lines
whose first non-blank character is ``#`` are skipped; line numbers still count them.  In the
comment the token after ``docid =`` is recorded as the document id (LETOR's ``#docid = D``).

Three functions, all looping without the GIL over a byte range ``buf[start:stop]`` (so that
threads may work on disjoint line-aligned ranges of one buffer at the same time):

* :func:`count_rows` counts data rows and lines (newline search only: the size of what
  :func:`fill` will write, and where each range's rows start);
* :func:`scan` also counts non-zeros and the largest feature index (for CSR output and for a
  width not given by the caller); it never fails: every malformed token is left to
  :func:`fill`, so that the error reported is always the first one in the file;
* :func:`fill` parses every number into the caller's arrays (dense rows or CSR) in one pass.

Numbers (Clinger 1990, "How to read floating point numbers accurately"): a decimal of at most
19 digits whose integer significand is at most 2**53 and whose decimal exponent is within ±22
is one correctly rounded multiplication or division of two exactly representable doubles
(the fast path: every value of LETOR, MSLR and Yahoo files); anything else goes to the C
library's correctly rounded ``strtod``.  Either way a value equals Python's ``float(text)``
bit for bit.  ``nan``, ``inf``, hexadecimal and other spellings that are not plain decimals
are rejected, as are values that overflow to infinity.

On an error :func:`fill` returns a non-zero status and writes the 1-based line number and the
byte offset (into ``buf``) of the offending token to ``err[0]`` and ``err[1]``; the wrapper
turns this into an exception that names the file and the line.
"""
from libc.stdint cimport int64_t, uint64_t, int32_t
from libc.math cimport isfinite
from libc.stdlib cimport strtod, malloc, free
from libc.string cimport memchr

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
    ERR_CAPACITY = 10

# Exactly representable powers of ten (10**0 .. 10**22).
cdef double[23] POW10
cdef int _i
for _i in range(23):
    POW10[_i] = 10.0 ** _i

cdef uint64_t TWO53 = 9007199254740992ULL


cdef inline bint is_space(unsigned char c) noexcept nogil:
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


cdef inline bint is_digit(unsigned char c) noexcept nogil:
    return <unsigned char>(c - 48) < 10


cdef inline bint is_delim(const unsigned char* s, Py_ssize_t q, Py_ssize_t e) noexcept nogil:
    """True when a token ends at ``q`` (end of line, whitespace or a comment)."""
    return q >= e or is_space(s[q]) or s[q] == 35


cdef inline Py_ssize_t line_end(const unsigned char* s, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    cdef const void* hit
    if p >= n:
        return n
    hit = memchr(s + p, 10, <size_t>(n - p))
    if hit == NULL:
        return n
    return <const unsigned char*>hit - s


cdef inline Py_ssize_t skip_space(const unsigned char* s, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e and is_space(s[p]):
        p += 1
    return p


cdef inline Py_ssize_t token_end(const unsigned char* s, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e and not is_space(s[p]) and s[p] != 35:  # '#'
        p += 1
    return p


cdef int parse_double_slow(const unsigned char* s, Py_ssize_t p, Py_ssize_t e,
                           double* out) noexcept nogil:
    """Validate s[p:e] as a plain decimal and convert it with ``strtod`` (correctly rounded);
    0 on success, -1 if malformed or not finite."""
    cdef Py_ssize_t q = p
    cdef int n_digits = 0
    cdef bint exp_digits = False
    cdef char tmp[512]
    cdef char* txt
    cdef Py_ssize_t k
    cdef char* endp
    if q < e and (s[q] == 43 or s[q] == 45):   # '+' '-'
        q += 1
    while q < e and is_digit(s[q]):
        n_digits += 1
        q += 1
    if q < e and s[q] == 46:   # '.'
        q += 1
        while q < e and is_digit(s[q]):
            n_digits += 1
            q += 1
    if n_digits == 0:
        return -1
    if q < e and (s[q] == 101 or s[q] == 69):  # 'e' 'E'
        q += 1
        if q < e and (s[q] == 43 or s[q] == 45):
            q += 1
        while q < e and is_digit(s[q]):
            exp_digits = True
            q += 1
        if not exp_digits:
            return -1
    if q != e:
        return -1
    if e - p < 512:
        txt = &tmp[0]
    else:                          # any length, as float() takes
        txt = <char*>malloc(e - p + 1)
    if txt == NULL:
        return -1
    for k in range(e - p):
        txt[k] = <char>s[p + k]
    txt[e - p] = 0
    out[0] = strtod(txt, &endp)
    if txt != &tmp[0]:
        free(txt)
    if not isfinite(out[0]):      # overflow (e.g. 1e400): not a finite number
        return -1
    return 0


cdef inline Py_ssize_t parse_number(const unsigned char* s, Py_ssize_t p, Py_ssize_t e,
                                    double* out) noexcept nogil:
    """Parse the decimal number starting at ``s[p]`` (ending before ``e`` or at the first
    character that cannot continue it); return the position after it, or -1 if there is no
    well-formed finite number there.  The caller checks that the token ends there."""
    cdef Py_ssize_t q = p, d0, t
    cdef bint neg = False
    cdef uint64_t mant = 0
    cdef int n_int, n_frac = 0, exp_sign = 1, exp_val = 0, exp10
    cdef bint exp_digits = False
    cdef double v
    if q < e and (s[q] == 43 or s[q] == 45):   # '+' '-'
        neg = s[q] == 45
        q += 1
    d0 = q
    while q < e and is_digit(s[q]):
        mant = mant * 10 + (s[q] - 48)
        q += 1
    n_int = <int>(q - d0)
    if q < e and s[q] == 46:   # '.'
        q += 1
        d0 = q
        while q < e and is_digit(s[q]):
            mant = mant * 10 + (s[q] - 48)
            q += 1
        n_frac = <int>(q - d0)
    if n_int + n_frac == 0:
        return -1
    if q < e and (s[q] == 101 or s[q] == 69):  # 'e' 'E'
        q += 1
        if q < e and (s[q] == 43 or s[q] == 45):
            if s[q] == 45:
                exp_sign = -1
            q += 1
        while q < e and is_digit(s[q]):
            exp_digits = True
            if exp_val < 100000:
                exp_val = exp_val * 10 + (s[q] - 48)
            q += 1
        if not exp_digits:
            return -1
    if n_int + n_frac > 19:
        # the significand may have overflowed: convert the whole token the careful way
        t = token_end(s, q, e)
        if parse_double_slow(s, p, t, out) != 0:
            return -1
        return q
    if mant == 0:
        out[0] = -0.0 if neg else 0.0
        return q
    exp10 = exp_sign * exp_val - n_frac
    if mant <= TWO53 and -22 <= exp10 <= 22:       # Clinger's fast path: exact operands
        if exp10 >= 0:
            v = <double>mant * POW10[exp10]
        else:
            v = <double>mant / POW10[-exp10]
        out[0] = -v if neg else v
        return q
    # strtod on the number's own characters (correctly rounded)
    if parse_double_slow(s, p, q, out) != 0:
        return -1
    return q


cdef inline int parse_index(const unsigned char* s, Py_ssize_t p, Py_ssize_t e,
                            int64_t* out) noexcept nogil:
    """Parse s[p:e] as a positive decimal integer (no sign); 0 on success."""
    cdef int64_t v = 0
    if p >= e:
        return -1
    while p < e:
        if not is_digit(s[p]):
            return -1
        if v > 100000000000000000LL:
            return -1
        v = v * 10 + (s[p] - 48)
        p += 1
    out[0] = v
    return 0


cdef inline bint is_qid(const unsigned char* s, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    return (e - p >= 4 and s[p] == 113 and s[p + 1] == 105 and s[p + 2] == 100
            and s[p + 3] == 58)   # "qid:"


cdef inline Py_ssize_t find_colon(const unsigned char* s, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    while p < e:
        if s[p] == 58:
            return p
        p += 1
    return -1


cdef inline void find_docid(const unsigned char* s, Py_ssize_t p, Py_ssize_t e,
                            int64_t* start, int64_t* stop) noexcept nogil:
    """In the comment s[p:e], locate the token after ``docid`` ``=``."""
    cdef Py_ssize_t q
    start[0] = -1
    stop[0] = -1
    while p + 5 <= e:
        if (s[p] == 100 and s[p + 1] == 111 and s[p + 2] == 99 and s[p + 3] == 105
                and s[p + 4] == 100):   # "docid"
            q = skip_space(s, p + 5, e)
            if q < e and s[q] == 61:    # '='
                q = skip_space(s, q + 1, e)
                start[0] = q
                while q < e and not is_space(s[q]):
                    q += 1
                stop[0] = q
                return
        p += 1


cdef inline Py_ssize_t _stop(Py_ssize_t stop, Py_ssize_t n) noexcept nogil:
    return n if stop < 0 or stop > n else stop


def count_rows(const unsigned char[::1] buf, Py_ssize_t start, Py_ssize_t stop,
               int64_t[::1] out):
    """Data rows and lines of ``buf[start:stop]`` (``stop`` < 0: the end) into ``out[0:2]``.

    A line is counted when it has a character that is not whitespace and does not start with
    ``#`` (what :func:`fill` turns into a row)."""
    cdef Py_ssize_t n = _stop(stop, buf.shape[0])
    cdef Py_ssize_t p = start, e
    cdef int64_t rows = 0, lines = 0
    cdef const unsigned char* s
    if n > 0:
        s = &buf[0]
        with nogil:
            while p < n:
                lines += 1
                e = line_end(s, p, n)
                p = skip_space(s, p, e)
                if p < e and s[p] != 35:
                    rows += 1
                p = e + 1
    out[0] = rows
    out[1] = lines


def scan(const unsigned char[::1] buf, bint require_qid, int64_t[::1] out,
         Py_ssize_t start=0, Py_ssize_t stop=-1):
    """Count rows, non-zeros, the largest feature index and the largest row length.

    ``out`` (length 6) receives: rows, non-zeros (an upper bound: every ``i:v`` token), largest
    well-formed feature index, largest number of features in one row, lines and the end
    offset.  Malformed tokens are skipped (:func:`fill` reports them).  Returns 0."""
    cdef Py_ssize_t n = _stop(stop, buf.shape[0])
    cdef Py_ssize_t p = start, e, t, c
    cdef int64_t line = 0, rows = 0, nnz = 0, max_index = 0, max_row = 0, row_nnz, idx
    cdef const unsigned char* s
    if n > 0:
        s = &buf[0]
        with nogil:
            while p < n:
                line += 1
                e = line_end(s, p, n)
                p = skip_space(s, p, e)
                if p >= e or s[p] == 35:          # blank or comment-only line
                    p = e + 1
                    continue
                rows += 1
                p = token_end(s, p, e)            # label token (checked by fill)
                row_nnz = 0
                while True:
                    p = skip_space(s, p, e)
                    if p >= e or s[p] == 35:
                        break
                    t = token_end(s, p, e)
                    if not is_qid(s, p, t):
                        c = find_colon(s, p, t)
                        if c >= 0 and parse_index(s, p, c, &idx) == 0:
                            if idx > max_index:
                                max_index = idx
                        row_nnz += 1
                    p = t
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
    return OK


def fill(const unsigned char[::1] buf, bint numeric_label, bint require_qid, bint dense,
         double[:, ::1] X, int64_t[::1] indptr, int32_t[::1] indices, double[::1] data,
         double[::1] labels, int64_t[:, ::1] label_span, int64_t[::1] qid,
         int64_t[:, ::1] docid_span, int64_t[::1] line_no, int64_t[::1] seen,
         int64_t[::1] err, int64_t row0=0, int64_t line0=0, int64_t nnz0=0,
         Py_ssize_t start=0, Py_ssize_t stop=-1):
    """Parse every row of ``buf[start:stop]`` into caller-allocated arrays (one pass).

    Dense mode writes ``X[row, index - 1] = value`` (X zero-filled by the caller, with at
    least as many columns as the largest index); CSR mode writes ``indptr/indices/data`` with
    0-based column indices in file order.  ``labels`` gets the numeric label when
    ``numeric_label``; ``label_span`` always gets the byte span of the label token.  ``qid``
    gets the query id (``-1`` when the row has none and ``require_qid`` is false).
    ``seen`` has one slot per column, initialised to -1 (or to row numbers below ``row0``),
    for duplicate-index detection; two threads need two of them.
    ``err`` (length 3) receives the line number and byte offset of an error, and the number
    of non-zeros written so far.

    The range's first row is row ``row0`` of the outputs (every per-row array, ``X`` and
    ``indptr``), its first line is line ``line0 + 1`` of the file, and its first non-zero goes
    to ``indices/data[nnz0]``.  Byte spans (``label_span``, ``docid_span``, ``err[1]``) are
    offsets into ``buf``.  ``err[0]`` is the file's line number; on success it is that of the
    range's last line.  A row beyond the outputs' length is status 10 (the caller's count was
    wrong), never a write out of bounds.
    """
    cdef Py_ssize_t n = _stop(stop, buf.shape[0])
    cdef Py_ssize_t ncol = seen.shape[0]
    cdef Py_ssize_t p = start, e, t, c, q
    cdef int64_t line = line0, row = row0 - 1, k = nnz0, idx, qv
    cdef int64_t cap = labels.shape[0]
    cdef int64_t kcap = indices.shape[0] if indices.shape[0] < data.shape[0] else data.shape[0]
    cdef double v
    cdef bint has_qid
    cdef int status = OK
    cdef const unsigned char* s
    cdef double* xrow = NULL
    cdef int64_t* sn = &seen[0] if ncol > 0 else NULL
    if dense and X.shape[0] < cap:
        cap = X.shape[0]
    if not dense and indptr.shape[0] - 1 < cap:
        cap = indptr.shape[0] - 1
    if n <= 0:
        err[0] = line
        err[1] = p
        err[2] = k
        return OK
    s = &buf[0]
    with nogil:
        if not dense and row0 == 0 and indptr.shape[0] > 0:
            indptr[0] = 0
        while p < n:
            line += 1
            e = line_end(s, p, n)
            p = skip_space(s, p, e)
            if p >= e or s[p] == 35:
                p = e + 1
                continue
            row += 1
            if row >= cap:
                status = ERR_CAPACITY
                break
            line_no[row] = line
            if dense:
                xrow = &X[row, 0] if ncol > 0 else NULL
            # label
            label_span[row, 0] = p
            if numeric_label:
                t = parse_number(s, p, e, &v)
                if t < 0 or not is_delim(s, t, e):
                    label_span[row, 1] = token_end(s, p, e)
                    status = ERR_LABEL
                    break
                labels[row] = v
            else:
                t = token_end(s, p, e)
            label_span[row, 1] = t
            p = t
            has_qid = False
            qid[row] = -1
            docid_span[row, 0] = -1
            docid_span[row, 1] = -1
            while True:
                p = skip_space(s, p, e)
                if p >= e:
                    break
                if s[p] == 35:
                    find_docid(s, p + 1, e, &docid_span[row, 0], &docid_span[row, 1])
                    break
                # fast path: <digits>:<number>
                idx = 0
                q = p
                while q < e and is_digit(s[q]) and q - p < 17:
                    idx = idx * 10 + (s[q] - 48)
                    q += 1
                if q < e and s[q] == 58 and idx >= 1 and q > p:
                    c = q
                else:
                    # anything else: qid, or an error classified as the grammar says
                    t = token_end(s, p, e)
                    if is_qid(s, p, t):
                        if has_qid or parse_index(s, p + 4, t, &qv) != 0:
                            status = ERR_QID
                            break
                        has_qid = True
                        qid[row] = qv
                        p = t
                        continue
                    c = find_colon(s, p, t)
                    if c < 0:
                        status = ERR_TOKEN
                        break
                    if parse_index(s, p, c, &idx) != 0 or idx < 1:
                        status = ERR_INDEX
                        break
                if idx > ncol:
                    status = ERR_INDEX_RANGE
                    break
                if sn[idx - 1] == row:
                    status = ERR_DUPLICATE
                    break
                sn[idx - 1] = row
                t = parse_number(s, c + 1, e, &v)
                if t < 0 or not is_delim(s, t, e):
                    p = c + 1
                    status = ERR_VALUE
                    break
                if dense:
                    xrow[idx - 1] = v
                else:
                    if k >= kcap:
                        status = ERR_CAPACITY
                        break
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
    err[2] = k
    return status
