# bash completion for workoutctl (installed as ~/.local/share/bash-completion/completions/workoutctl)

# The daemon is asked over its control socket, however it was started (a terminal, systemd):
# `workoutctl` itself, with the --socket of the command line being completed. Nothing listening:
# nothing offered (IDs) or the built-in list (activities); with socket activation the first
# question starts the daemon, as any workoutctl command does.
_workoutctl_ask() {
    local i socket=()
    for ((i = 1; i < ${#words[@]} - 1; i++)); do
        [[ ${words[i]} == --socket ]] && socket=(--socket "${words[i+1]}")
        [[ ${words[i]} == --socket=* ]] && socket=("${words[i]}")
    done
    timeout 2 "${words[0]:-workoutctl}" "${socket[@]}" --json "$@" 2>/dev/null
}

_workoutctl_activities() {
    # The "name" keys of `workoutctl --json activities`; without a daemon the built-in list
    # (ActivityType's raw values).
    local names
    names=$(_workoutctl_ask activities | grep -o '"name" *: *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/')
    if [[ -z $names ]]; then
        names="running trail_running treadmill_running walking hiking cycling mountain_biking
            indoor_cycling open_water_swimming pool_swimming rowing indoor_rowing kayaking
            stand_up_paddling cross_country_skiing downhill_skiing snowboarding skating
            inline_skating sailing strength hiit elliptical yoga climbing dance other"
    fi
    echo "$names"
}

# Saved workouts' IDs (`workoutctl --json list`), and `last`, the newest.
_workoutctl_ids() {
    local ids
    ids=$(_workoutctl_ask list | grep -o '"id" *: *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/')
    [[ -n $ids ]] && echo "$ids last"
}

_workoutctl() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    # Every command of `workoutctl --help` (CommandHelp.all; a test keeps the two in step).
    local commands="start pause resume lap next marker stop toggle status watch activities list show
        open export import edit recompute streak totals fitness power-curve records simulate reload delete undelete"

    # options taking a value
    case $prev in
        --socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --format)
            if [[ " ${words[*]} " == *" watch "* ]]; then
                COMPREPLY=($(compgen -W "text waybar i3bar" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "gpx tcx json fit" -- "$cur"))
            fi
            return ;;
        --effort) COMPREPLY=($(compgen -W "1 2 3 4 5 6 7 8 9 10" -- "$cur")); return ;;
        --records) COMPREPLY=($(compgen -W "off on" -- "$cur")); return ;;
        --title|--notes|--gear|--limit|--hr|--from|--to) return ;;
        --feed-socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --plan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --activity) COMPREPLY=($(compgen -W "$(_workoutctl_activities)" -- "$cur")); return ;;
        --speed) COMPREPLY=($(compgen -W "1 2 5 10 60" -- "$cur")); return ;;
    esac

    # find the command word (skipping global options)
    local i cmd="" cmd_index=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket) ((i++)) ;;
            -*) ;;
            *) cmd=${words[i]}; cmd_index=$i; break ;;
        esac
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--socket --json --help --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local nargs=$((cword - cmd_index))
    case $cmd in
        start)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--plan" -- "$cur"))
            else
                ((nargs == 1)) && COMPREPLY=($(compgen -W "$(_workoutctl_activities)" -- "$cur"))
            fi ;;
        recompute)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--set --save" -- "$cur"))
            elif [[ $prev == --set ]]; then
                COMPREPLY=($(compgen -W "metrics.minFixMode= metrics.maxHorizontalAccuracyMeters= metrics.warmUpFixes= metrics.jumpMeters= metrics.signalLostSeconds= metrics.autoPauseSeconds= metrics.autoLapMeters=" -- "$cur"))
                compopt -o nospace 2>/dev/null
            elif ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur"))
            fi ;;
        show)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--charts" -- "$cur"))
            elif ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur"))
            fi ;;
        open)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--print" -- "$cur"))
            elif ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur"))
            fi ;;
        delete|undelete)
            ((nargs == 1)) && COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur")) ;;
        edit)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--activity --title --notes --gear --effort --records" -- "$cur"))
            elif ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur"))
            fi ;;
        list)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--from --to --activity --limit" -- "$cur")) ;;
        totals)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--week --month --year --activity" -- "$cur")) ;;
        fitness)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--from --to" -- "$cur")) ;;
        power-curve)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--activity --from --to" -- "$cur")) ;;
        records)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--activity" -- "$cur")) ;;
        watch)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--format" -- "$cur")) ;;
        export)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--format --output" -- "$cur"))
            elif ((nargs == 1)); then
                COMPREPLY=($(compgen -W "$(_workoutctl_ids)" -- "$cur"))
            fi ;;
        import)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--activity" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -X '!*.@(gpx|GPX|tcx|TCX|fit|FIT|nmea|NMEA|log|LOG|txt|gz|GZ)' -- "$cur")
                           $(compgen -d -- "$cur"))
            fi ;;
        simulate)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--speed --loop --activity --hr --feed-socket" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -X '!*.@(gpx|GPX|nmea|NMEA|log|LOG|txt)' -- "$cur")
                           $(compgen -d -- "$cur"))
            fi ;;
    esac
}
complete -F _workoutctl -o filenames workoutctl
