-- GCRA, one decision, when the engine knows now and the theoretical arrival time fits one
-- integer (GcraLimiter: the reduced rate u = rate / gcd(rate, period_ms) is small enough that
-- now x u stays below 2^53). Times are in units of 1/u ms, so T = period_ms / rate is the whole
-- number period_ms / gcd units and every value below is an exact integer.
-- KEYS[1] {<name>}:tat:<config fingerprint>[:<client>] = TAT in units (absent = now): a changed
--         config decides on a new key; the old one expires.
-- ARGV: now (units), permits x T (units), tau = burst x T (units), grid (units, a power of two
--       >= tau + T), ttl_ms[, the config key's TTL (a scratch limiter's,
--       LimiterOptions::ttlCapMs; without it the config key has no TTL)]
-- Returns the TAT this decision leaves when granted, -(max(TAT, now)) - 1 when refused (the
-- engine works out remaining and retry_after_ms); the text "reset <that>" when this was the
-- first decision under a changed config.
--
-- Cost (the common float GCRA is the yardstick): one GET, one SET per grant, one tonumber (the
-- stored TAT) where it makes six, the arguments converted by arithmetic instead (tonumber() is a
-- C call that parses its string twice). The TTL is set only when the TAT enters a new grid
-- cell: the key must live until its TAT (plus a grace), and an expiry that covers the end of the
-- TAT's cell covers every later TAT in the same cell, so the other grants keep it (SET ...
-- KEEPTTL costs Redis half of SET ... PX). The grid is a power of two: TAT % grid is exact.
local now = ARGV[1] + 0
local state = redis.call('get', KEYS[1])
local tat, old = now, nil
local reset = false
if state then
    old = tonumber(state)
    if old == nil then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a GCRA state')
    end
    if old > now then
        tat = old
    end
else
    -- A new key: the first under this config? {<name>}:tat:cfg names the config deciding now.
    local p = string.find(KEYS[1], '}:tat:', 1, true)
    local configKey = string.sub(KEYS[1], 1, p + 5) .. 'cfg'
    local fingerprint = string.sub(KEYS[1], p + 6, p + 13)
    local current = redis.call('get', configKey)
    if current ~= fingerprint then
        if ARGV[6] then
            redis.call('set', configKey, fingerprint, 'PX', ARGV[6])
        else
            redis.call('set', configKey, fingerprint)
        end
        reset = current ~= false
    end
end

local new = tat + ARGV[2]
local answer
if new - ARGV[3] > now then
    answer = -tat - 1
else
    local grid = ARGV[4] + 0
    if old and new < old - old % grid + grid then
        redis.call('set', KEYS[1], string.format('%d', new), 'KEEPTTL')
    else
        redis.call('set', KEYS[1], string.format('%d', new), 'PX', ARGV[5])
    end
    answer = new
end
if reset then
    return 'reset ' .. string.format('%d', answer)
end
return answer
