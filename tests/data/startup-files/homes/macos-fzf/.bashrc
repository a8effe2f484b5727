[ -f ~/.fzf.bash ] && source ~/.fzf.bash
