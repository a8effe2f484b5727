# Setup fzf
# ---------
if [[ ! "$PATH" == */Users/user/.fzf/bin* ]]; then
  PATH="${PATH:+${PATH}:}/Users/user/.fzf/bin"
fi

eval "$(fzf --bash)"
